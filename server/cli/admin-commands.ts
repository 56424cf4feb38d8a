import { z } from "zod";
import type { Database } from "@/db/client";
import { AppError } from "@/server/errors";
import type { Actor } from "@/server/services/partners";
import { parseArgs, parseFlags } from "./args";

// The operations CLI's command table (DECISIONS "Operations CLI"). A command is
// a flag schema plus a run function that calls one service and returns the JSON
// to print; later features add theirs by spreading another table into `commands`.

export interface AdminContext {
  /** The migrated database, opened on first use so `help` needs none. */
  db(): Promise<Database>;
  actor: Actor;
  /** Positional arguments after the command name, checked against `args`. */
  args: string[];
}

export interface AdminCommand<S extends z.ZodType = z.ZodType> {
  summary: string;
  /** Usage after the command name, e.g. `--email E --password P`. */
  usage: string;
  /** Names of required positional arguments, e.g. ["ORDER_ID"]. */
  args?: readonly string[];
  flags: S;
  /** Flags that take no value (besides the global --json). */
  booleans?: readonly string[];
  run(ctx: AdminContext, flags: z.output<S>): Promise<unknown>;
}

export function defineCommand<S extends z.ZodType>(command: AdminCommand<S>): AdminCommand<S> {
  return command;
}

export type CommandTable = Record<string, AdminCommand>;

export function helpFor(table: CommandTable) {
  return {
    usage: "npm run --silent admin -- <command> [flags] [--json]",
    commands: Object.entries(table).map(([name, c]) => ({
      command: [name, ...(c.args ?? []), c.usage].filter(Boolean).join(" "),
      summary: c.summary,
    })),
  };
}

/** Parses argv for one command of `table`, runs it and returns its JSON result. */
export async function runAdminCommand(table: CommandTable, argv: readonly string[], ctx: Omit<AdminContext, "args">) {
  const [name, ...rest] = argv;
  if (name === undefined || name === "--help") return helpFor(table);
  const command = Object.hasOwn(table, name) ? table[name] : undefined;
  if (!command) {
    throw new AppError("validation_error", `unknown command "${name}"; commands: ${Object.keys(table).join(", ")}`);
  }
  const { positionals, flags } = parseArgs(rest, new Set(["json", ...(command.booleans ?? [])]));
  delete flags.json;
  const expected = command.args ?? [];
  const missing = expected[positionals.length];
  if (missing) throw new AppError("validation_error", `${name}: ${missing} is required`);
  if (positionals.length > expected.length) {
    throw new AppError("validation_error", `${name}: unexpected argument "${positionals[expected.length]}"`);
  }
  return command.run({ ...ctx, args: positionals }, parseFlags(command.flags, flags, name));
}
