import { getLogger } from "@/server/observability/logger";

// One way to log a failure, as one structured line (server/observability/logger.ts). A database error is logged by its code, message and
// query text, never its parameters nor its `detail` (both can hold buyer emails,
// secrets or card digits: "Key (email)=(a@b.c) already exists"). Anything else
// is logged by name, message and stack.

interface PostgresLikeError {
  name?: string;
  code?: string;
  message?: string;
  query?: string;
  position?: string;
  severity?: string;
  table_name?: string;
  column_name?: string;
  constraint_name?: string;
  routine?: string;
}

/** postgres.js raises PostgresError; drizzle wraps it in a DrizzleQueryError with `cause`. */
function postgresErrorOf(error: unknown): PostgresLikeError | undefined {
  for (let current = error, depth = 0; current && typeof current === "object" && depth < 5; depth++) {
    const candidate = current as PostgresLikeError & { cause?: unknown };
    if (candidate.name === "PostgresError" || (typeof candidate.code === "string" && /^[0-9A-Z]{5}$/.test(candidate.code) && "severity" in candidate)) {
      return candidate;
    }
    current = candidate.cause;
  }
  return undefined;
}

/** The stack's frames only: its first lines repeat the message. */
function frames(error: Error): string {
  const lines = (error.stack ?? "").split("\n").filter((line) => /^\s+at /.test(line));
  return lines.length ? `\n${lines.join("\n")}` : "";
}

/** A one-line, parameter-free description of an error, safe for logs. */
export function describeError(error: unknown): string {
  const pg = postgresErrorOf(error);
  if (pg) {
    const where = [
      pg.table_name && `table ${pg.table_name}`,
      pg.column_name && `column ${pg.column_name}`,
      pg.constraint_name && `constraint ${pg.constraint_name}`,
      pg.position && `position ${pg.position}`,
    ].filter(Boolean);
    const query = (pg.query ?? (error as { query?: string }).query ?? "").replace(/\s+/g, " ").trim();
    return `database error ${pg.code}: ${pg.message}${where.length ? ` (${where.join(", ")})` : ""}${query ? `; query: ${query}` : ""}`;
  }
  if (error instanceof Error) {
    // A drizzle query error's message embeds the parameters ("params: ..."): keep only the query.
    const message = error.message.replace(/\nparams:[\s\S]*$/, "").replace(/params: [\s\S]*$/, "[params withheld]");
    return `${error.name}: ${message}${frames(error)}`;
  }
  return String(error);
}

/** Log a failure with its context (a job name, what failed) and fields such as the request id. */
export function logError(context: string, error: unknown, fields: Record<string, string> = {}): void {
  getLogger().error({ ...fields, context, error: describeError(error) }, context);
}
