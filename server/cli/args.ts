import { z } from "zod";
import { AppError, isAppError } from "@/server/errors";
import { scopes, type Scope } from "@/server/http/contract";

// Argument parsing and output shared by the operations CLIs. Flags are checked
// with zod so a bad one fails as validation_error naming the flag, exactly as a
// bad request field would over HTTP.

export interface ParsedArgs {
  positionals: string[];
  flags: Record<string, string | true>;
}

/**
 * `--name value`, `--name=value`, and bare boolean flags. Which flags are
 * boolean must be known up front, else `--json ord_1` would eat the order id.
 */
export function parseArgs(argv: readonly string[], booleans: ReadonlySet<string>): ParsedArgs {
  const positionals: string[] = [];
  const flags: Record<string, string | true> = {};
  for (let i = 0; i < argv.length; i++) {
    const token = argv[i]!;
    if (token === "--") {
      positionals.push(...argv.slice(i + 1));
      break;
    }
    if (!token.startsWith("--")) {
      positionals.push(token);
      continue;
    }
    const eq = token.indexOf("=");
    const name = token.slice(2, eq === -1 ? undefined : eq);
    if (!name) throw new AppError("validation_error", `malformed flag "${token}"`);
    if (name in flags) throw new AppError("validation_error", `--${name} given more than once`);
    if (eq !== -1) flags[name] = token.slice(eq + 1);
    else if (booleans.has(name)) flags[name] = true;
    else {
      const next = argv[i + 1];
      if (next === undefined || next.startsWith("--")) throw new AppError("validation_error", `--${name} needs a value`);
      flags[name] = next;
      i++;
    }
  }
  return { positionals, flags };
}

/** Validates flags against a command's schema; the first problem names its flag. */
export function parseFlags<S extends z.ZodType>(schema: S, flags: Record<string, string | true>, command: string): z.output<S> {
  const result = schema.safeParse(flags);
  if (result.success) return result.data;
  const details = result.error.issues.flatMap((issue) =>
    issue.code === "unrecognized_keys"
      ? issue.keys.map((key) => ({ path: `--${key}`, message: `unknown flag for ${command}` }))
      : [{ path: issue.path.length ? `--${issue.path.join(".")}` : command, message: issue.message }],
  );
  const first = details[0]!;
  throw new AppError("validation_error", `${first.path}: ${first.message}`, details);
}

// Flag shapes. Values arrive as strings; `true` means the flag was given bare.
const text = (what: string) =>
  z.string({ error: (issue) => (issue.input === undefined ? "is required" : `needs a ${what}`) }).min(1, `needs a ${what}`);

export const flag = {
  text,
  email: () => text("value").pipe(z.email("must be an email address")),
  bool: () => z.literal(true, { error: "takes no value" }).optional(),
  cents: () =>
    text("value")
      .regex(/^\d+$/, "must be a whole number of minor units (cents)")
      .transform(Number)
      .refine(Number.isSafeInteger, "is too large"),
  env: () => z.enum(["sandbox", "live"], { error: (i) => (i.input === undefined ? "is required" : "must be sandbox or live") }),
  scopes: () =>
    text("comma list of scopes").transform((value, ctx) => {
      const list = value.split(",").map((s) => s.trim()).filter(Boolean);
      const unknown = list.filter((s) => !(scopes as readonly string[]).includes(s));
      if (unknown.length || list.length === 0) {
        ctx.addIssue({ code: "custom", message: `unknown scope ${unknown.join(", ") || "(none)"}; allowed: ${scopes.join(",")}` });
        return z.NEVER;
      }
      return [...new Set(list)] as Scope[];
    }),
};

/** Success: exactly one JSON document on stdout (compact with --json, pretty without). */
export function printResult(value: unknown, compact: boolean): void {
  process.stdout.write(`${JSON.stringify(value, null, compact ? undefined : 2)}\n`);
}

/** Failure: `{"error":{code,message}}` on stderr, whatever was thrown. */
export function printError(error: unknown): void {
  const appError = isAppError(error)
    ? error
    : error instanceof Error && error.name === "EnvError"
      ? new AppError("validation_error", error.message)
      : new AppError("internal_error", error instanceof Error ? error.message : String(error));
  const body = {
    error: {
      code: appError.code,
      message: appError.message,
      ...(appError.details ? { details: appError.details } : {}),
    },
  };
  process.stderr.write(`${JSON.stringify(body)}\n`);
}
