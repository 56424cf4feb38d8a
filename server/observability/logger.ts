import cluster from "node:cluster";
import { createRequire } from "node:module";
import { hostname } from "node:os";
import path from "node:path";
import pino, { type DestinationStream, type Logger } from "pino";
import { getEnv, type Env } from "@/server/env";

// The process's one structured logger: JSON lines on stdout (pino), written
// asynchronously so a request never waits for the terminal or a log shipper.
// Pretty-printed in development when the pino-pretty devDependency is installed;
// a production install never loads it.
//
// One logger per process, kept on globalThis: Next gives each route bundle its own
// copy of this module, and they must all write through the one async stream.

export type { Logger };

/** Values under these keys never reach a log line, at the top level or inside one of CONTAINERS. */
const SECRET_KEYS = [
  "authorization",
  "cookie",
  "set-cookie",
  "x-service-signature",
  "password",
  "secret",
  "token",
  "apiKey",
  "card",
  "cardNumber",
  "cvc",
  // A URL's query string can carry tokens (/checkout?pt=...): it is never logged.
  "query",
  "search",
];
const CONTAINERS = ["", "headers", "req.headers", "body", "params"];
// Named paths only: a wildcard path ("*.secret") costs pino 10-20 µs a line, a named one next to nothing.
export const REDACT_PATHS = CONTAINERS.flatMap((container) =>
  SECRET_KEYS.map((key) => {
    const part = /^[A-Za-z_$][\w$]*$/.test(key) ? key : `["${key}"]`;
    return container === "" ? part : part.startsWith("[") ? `${container}${part}` : `${container}.${part}`;
  }),
);

export interface LoggerOptions {
  level?: string;
  pretty?: boolean;
  /** Where lines go (tests pass a stream they read); default: `fd`, asynchronously. */
  destination?: DestinationStream;
  /** 1 (stdout, the default) or 2: a CLI whose stdout is its answer logs to stderr. */
  fd?: 1 | 2;
}

export function createLogger(options: LoggerOptions = {}): Logger {
  const base = {
    level: options.level ?? "info",
    // pino's own pid and hostname, and in a web cluster (WEB_CONCURRENCY > 1) the worker's id.
    base: { pid: process.pid, hostname: hostname(), ...(cluster.isWorker && cluster.worker && { worker: cluster.worker.id }) },
    redact: { paths: REDACT_PATHS, censor: "[redacted]" },
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label: string) => ({ level: label }) },
  };
  if (options.destination) return pino(base, options.destination);
  const pretty = options.pretty ? loadPretty() : undefined;
  if (pretty) {
    // Formatted in this thread (development only): a transport's worker thread cannot be
    // found from a bundled command (web.mjs, worker.mjs), a stream in this thread always is.
    return pino(base, pretty({ colorize: true, singleLine: true, translateTime: "HH:MM:ss.l", ignore: "pid,hostname", destination: options.fd ?? 1 }));
  }
  const stream = pino.destination({ dest: options.fd ?? 1, sync: false });
  process.once("exit", () => {
    try {
      stream.flushSync();
    } catch {
      // a write still in flight at exit: nothing more can be done
    }
  });
  return pino(base, stream);
}

type PrettyFactory = (options: Record<string, unknown>) => DestinationStream;

/** pino-pretty's stream factory when it is installed (a devDependency: absent from production installs). */
function loadPretty(): PrettyFactory | undefined {
  try {
    return createRequire(path.join(process.cwd(), "package.json"))("pino-pretty") as PrettyFactory;
  } catch {
    return undefined;
  }
}

const holder = globalThis as unknown as { __pdmLogger?: Logger; __pdmRequestLogger?: { base: Logger; child: Logger } };

/** The process's logger, made from the settings (LOG_LEVEL, LOG_FORMAT) on first use. */
export function getLogger(): Logger {
  if (!holder.__pdmLogger) {
    // Logging never throws: with settings that do not load (their own error says why), the defaults.
    let env: Pick<Env, "LOG_LEVEL" | "LOG_FORMAT"> = { LOG_LEVEL: "info", LOG_FORMAT: "json" };
    try {
      env = getEnv();
    } catch {
      // keep the defaults
    }
    holder.__pdmLogger = createLogger({ level: env.LOG_LEVEL, pretty: env.LOG_FORMAT === "pretty" });
  }
  return holder.__pdmLogger;
}

/**
 * The logger for the web server's per-request line, which is built field by field
 * from values that are safe to log (never a header, body or query): the same
 * stream without the redaction pass, which costs 5-15 µs a line with this many paths.
 */
export function getRequestLogger(): Logger {
  const base = getLogger();
  if (holder.__pdmRequestLogger?.base !== base) holder.__pdmRequestLogger = { base, child: base.child({}, { redact: [] }) };
  return holder.__pdmRequestLogger.child;
}

/** Replace the process's logger (tests capture lines this way). */
export function installLogger(logger: Logger): void {
  holder.__pdmLogger = logger;
}

/** Write what the async stream holds (before a deliberate exit). */
export function flushLogs(): Promise<void> {
  const logger = holder.__pdmLogger;
  return new Promise((resolve) => (logger ? logger.flush(() => resolve()) : resolve()));
}
