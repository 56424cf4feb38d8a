import { ZodError } from "zod";
import { AppError } from "@/server/errors";

/**
 * For assert.rejects on a tRPC caller: whether the call failed with the
 * AppError `code` (input that fails its zod schema counts as validation_error).
 */
export const isCode = (code: string) => (error: unknown) => {
  const cause = (error as { cause?: unknown }).cause;
  if (cause instanceof AppError) return cause.code === code;
  if (cause instanceof ZodError) return code === "validation_error";
  return error instanceof AppError && error.code === code;
};
