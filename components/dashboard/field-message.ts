// Server errors shown on form fields: a tRPC error's details (AppError or zod)
// name the field they are about; the field shows its own, else the message.

export interface ClientError {
  message: string;
  data?: { code?: string; details?: { path: string; message: string }[] | null } | null;
}

/** The message to show on a form field: the server's detail for it when there is one. */
export function fieldMessage(error: ClientError | null | undefined, path: string): string | undefined {
  if (!error) return undefined;
  const detail = error.data?.details?.find((d) => d.path === path) ?? error.data?.details?.[0];
  return detail?.message ?? error.message;
}
