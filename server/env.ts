import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { z } from "zod";

// Settings of DECISIONS "Running and operating the service", validated once at start.

const bool = (fallback: boolean) =>
  z
    .enum(["true", "false", "1", "0"])
    .optional()
    .transform((v) => (v === undefined ? fallback : v === "true" || v === "1"));

const durationList = z
  .string()
  .regex(/^\s*\d+(ms|s|m|h|d)\s*(,\s*\d+(ms|s|m|h|d)\s*)*$/, "a comma list of delays such as 10s,1m,2h")
  .transform((s) => s.split(",").map((part) => parseDuration(part.trim())));

const schema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  /** The operator's mode; defaults from NODE_ENV. `npm start` runs Next with NODE_ENV=production either way. */
  APP_ENV: z.enum(["development", "production"]).optional(),
  PORT: z.coerce.number().int().min(1).max(65535).default(3000),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, "must be a postgres:// or postgresql:// URL")
    .optional(),
  DATA_DIR: z.string().min(1).default(".data"),
  APP_URL: z.url({ protocol: /^https?$/ }).optional(),
  MCP_URL: z.url({ protocol: /^https?$/ }).optional(),
  SECRET_KEY: z.string().min(32, "must be at least 32 characters").optional(),
  /** Next's Server Actions key (AES-GCM, base64 of 16, 24 or 32 bytes); the same on every web instance. */
  NEXT_SERVER_ACTIONS_ENCRYPTION_KEY: z
    .string()
    .refine((v) => /^[A-Za-z0-9+/]+={0,2}$/.test(v) && [16, 24, 32].includes(Buffer.from(v, "base64").length), "must be the base64 of 16, 24 or 32 random bytes (openssl rand -base64 32)")
    .optional(),
  WEBHOOK_RETRY_SCHEDULE: durationList.prefault(["10s", "1m", "5m", "30m", "2h", "6h", "12h", "24h"].join(",")),
  WEBHOOK_ALLOW_PRIVATE_TARGETS: bool(false),
  SEED_DEMO: z.enum(["true", "false", "1", "0"]).optional(),
  DB_POOL_MAX: z.coerce.number().int().min(1, "must be 1-100").max(100, "must be 1-100").default(10),
  /** The signed-request gate's own connections (db/client.ts gateClient): few, so its statements pipeline. */
  DB_GATE_POOL_MAX: z.coerce.number().int().min(1, "must be 1-100").max(100, "must be 1-100").default(2),
  DB_STATEMENT_TIMEOUT_MS: z.coerce.number().int().min(100).max(3_600_000).default(15_000),
  /** The dashboard's request log (buffered writes, off the request path); `false` stops recording. */
  REQUEST_LOG: bool(true),
  /** The signing gate's in-process credential cache (server/http/credential-cache.ts); `false` reads every request. */
  CREDENTIAL_CACHE: bool(true),
  TRUST_PROXY_HOPS: z.coerce.number().int().min(0, "must be 0-10").max(10, "must be 0-10").default(0),
  /** Web server processes on this host (scripts/serve.ts): 1 serves in one process; n > 1 forks n workers sharing PORT (node:cluster). */
  WEB_CONCURRENCY: z.coerce.number().int("must be 1-64").min(1, "must be 1-64").max(64, "must be 1-64").default(1),
  /** Threads that embed large batches for search (server/search/embed-threads.ts): imports, start-up registration. 1: the calling thread only. */
  SEARCH_EMBED_THREADS: z.coerce.number().int("must be 1-16").min(1, "must be 1-16").max(16, "must be 1-16").default(1),
  /** Structured logs (server/observability/logger.ts): the least severe level written. */
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  /** json (one object a line) or pretty (needs the pino-pretty devDependency). Default: pretty in development, else json. */
  LOG_FORMAT: z.enum(["json", "pretty"]).optional(),
  /** Bearer token GET /metrics requires; in production /metrics answers 404 until it is set. */
  METRICS_TOKEN: z.string().min(16, "must be at least 16 characters").optional(),
  /** The worker serves its own GET /metrics on this port (unset: no metrics server in the worker). */
  METRICS_PORT: z.coerce.number().int().min(1, "must be 1-65535").max(65535, "must be 1-65535").optional(),
  // Live hosted checkout through Stripe (DECISIONS "Partner kinds"): all three, or none (live payments off).
  STRIPE_SECRET_KEY: stripeKey(/^(sk|rk)_(live|test)_[0-9A-Za-z_]+$/, "a Stripe secret key (sk_live_..., or rk_live_... restricted)"),
  STRIPE_PUBLISHABLE_KEY: stripeKey(/^pk_(live|test)_[0-9A-Za-z_]+$/, "a Stripe publishable key (pk_live_...)"),
  STRIPE_WEBHOOK_SECRET: stripeKey(/^whsec_[0-9A-Za-z_+/=]+$/, "a Stripe webhook signing secret (whsec_...)"),
  // The same for sandbox checkout in Stripe's test mode (else the built-in simulated processor).
  STRIPE_TEST_SECRET_KEY: stripeKey(/^(sk|rk)_test_[0-9A-Za-z_]+$/, "a Stripe test-mode secret key (sk_test_...)"),
  STRIPE_TEST_PUBLISHABLE_KEY: stripeKey(/^pk_test_[0-9A-Za-z_]+$/, "a Stripe test-mode publishable key (pk_test_...)"),
  STRIPE_TEST_WEBHOOK_SECRET: stripeKey(/^whsec_[0-9A-Za-z_+/=]+$/, "a Stripe webhook signing secret (whsec_...)"),
  /** Another host for the Stripe API (tests: a local stand-in); unset means Stripe itself. */
  STRIPE_API_URL: z.url({ protocol: /^https?$/ }).optional(),
});

function stripeKey(pattern: RegExp, what: string) {
  return z.string().regex(pattern, `must be ${what}`).optional();
}

/** One Stripe account's keys (live, or the test mode sandbox checkout may use). */
/** Every setting the service reads from its environment, as `.env.example` lists them (with next-auth's two). */
export const settingSchemas: Readonly<Record<string, z.ZodType>> = schema.shape;

export interface StripeKeys {
  secretKey: string;
  publishableKey: string;
  webhookSecret: string;
}

type StripeSetting = `STRIPE_${string}`;

export type Env = Omit<z.infer<typeof schema>, "APP_URL" | "MCP_URL" | "SECRET_KEY" | "APP_ENV" | "SEED_DEMO" | "LOG_FORMAT" | StripeSetting> & {
  APP_ENV: "development" | "production";
  LOG_FORMAT: "json" | "pretty";
  /** Demo data: on in development, off in production unless SEED_DEMO=true forces it. */
  SEED_DEMO: boolean;
  APP_URL: string;
  MCP_URL: string;
  SECRET_KEY: string;
  /** Absolute path of DATA_DIR. */
  dataDir: string;
  stripe: {
    /** Null: live payments are off (POST /checkout-session with a live key answers payments_unavailable). */
    live: StripeKeys | null;
    /** Null: sandbox checkout uses the built-in simulated processor. */
    test: StripeKeys | null;
    /** Null: api.stripe.com. */
    apiUrl: string | null;
  };
};

export class EnvError extends Error {
  override name = "EnvError";
}

/**
 * What the release commands (migrate, web, worker) need beyond loadEnv in
 * production: a real database, and for the web server one Server Actions key
 * shared by every instance (else each build or host would use its own and a
 * form rendered by one instance could not be posted to another).
 */
export function checkProductionProcess(env: Env, role: "migrate" | "web" | "worker"): void {
  if (env.APP_ENV !== "production") return;
  if (!env.DATABASE_URL) {
    throw new EnvError("Invalid settings:\n  DATABASE_URL: required in production (the embedded database is for trying the product on one machine)");
  }
  if (role === "web" && !env.NEXT_SERVER_ACTIONS_ENCRYPTION_KEY) {
    throw new EnvError(
      "Invalid settings:\n  NEXT_SERVER_ACTIONS_ENCRYPTION_KEY: required in production, the same on every web instance (make one with openssl rand -base64 32)",
    );
  }
}

let cached: Env | undefined;

export function getEnv(): Env {
  cached ??= loadEnv(process.env);
  return cached;
}

/** Forget the cached settings (tests that change process.env). */
export function resetEnv(): void {
  cached = undefined;
}

export function loadEnv(source: Record<string, string | undefined>): Env {
  const input = Object.fromEntries(
    Object.keys(schema.shape).map((key) => [key, source[key] === "" ? undefined : source[key]]),
  );
  const parsed = schema.safeParse(input);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `  ${issue.path.join(".")}: ${issue.message}`);
    throw new EnvError(`Invalid settings:\n${lines.join("\n")}`);
  }
  const env = parsed.data;
  const appEnv = env.APP_ENV ?? (env.NODE_ENV === "production" ? "production" : "development");
  if (appEnv === "production" && env.WEBHOOK_ALLOW_PRIVATE_TARGETS) {
    throw new EnvError("Invalid settings:\n  WEBHOOK_ALLOW_PRIVATE_TARGETS: refused in production (webhooks would reach private networks)");
  }
  const stripe = {
    live: stripeKeys(env, "STRIPE_"),
    test: stripeKeys(env, "STRIPE_TEST_"),
    apiUrl: env.STRIPE_API_URL?.replace(/\/+$/, "") ?? null,
  };
  if (appEnv === "production" && stripe.live && !/^(sk|rk)_live_/.test(stripe.live.secretKey)) {
    throw new EnvError("Invalid settings:\n  STRIPE_SECRET_KEY: a test-mode key cannot take live payments in production; use an sk_live_ key");
  }
  if (appEnv === "production" && stripe.live && !stripe.live.publishableKey.startsWith("pk_live_")) {
    throw new EnvError("Invalid settings:\n  STRIPE_PUBLISHABLE_KEY: a test-mode key cannot take live payments in production; use a pk_live_ key");
  }
  const seedDemo = env.SEED_DEMO === undefined ? appEnv !== "production" : env.SEED_DEMO === "true" || env.SEED_DEMO === "1";
  const dataDir = path.resolve(env.DATA_DIR);
  const appUrl = (env.APP_URL ?? `http://localhost:${env.PORT}`).replace(/\/+$/, "");
  const mcpUrl = (env.MCP_URL ?? appUrl).replace(/\/+$/, "");
  return {
    ...env,
    APP_ENV: appEnv,
    // Tests read lines back as JSON; a development terminal gets them pretty.
    LOG_FORMAT: env.LOG_FORMAT ?? (appEnv === "development" && env.NODE_ENV !== "test" ? "pretty" : "json"),
    SEED_DEMO: seedDemo,
    APP_URL: appUrl,
    MCP_URL: mcpUrl,
    SECRET_KEY: env.SECRET_KEY ?? loadOrCreateSecretKey(dataDir, appEnv),
    dataDir,
    stripe,
  };
}

type Parsed = z.infer<typeof schema>;

/** All three settings of one prefix, or none of them; half a configuration refuses to start. */
function stripeKeys(env: Parsed, prefix: "STRIPE_" | "STRIPE_TEST_"): StripeKeys | null {
  const names = [`${prefix}SECRET_KEY`, `${prefix}PUBLISHABLE_KEY`, `${prefix}WEBHOOK_SECRET`] as const;
  const values = names.map((name) => env[name as keyof Parsed] as string | undefined);
  const missing = names.filter((_, i) => values[i] === undefined);
  if (missing.length === names.length) return null;
  if (missing.length > 0) {
    throw new EnvError(`Invalid settings:\n  ${missing.join(", ")}: missing; set ${names.join(", ")} together to turn Stripe payments on, or none of them`);
  }
  const [secretKey, publishableKey, webhookSecret] = values as [string, string, string];
  if (secretKey.includes("_test_") !== publishableKey.includes("_test_")) {
    throw new EnvError(`Invalid settings:\n  ${names[1]}: its mode (live or test) differs from ${names[0]}'s`);
  }
  return { secretKey, publishableKey, webhookSecret };
}

function loadOrCreateSecretKey(dataDir: string, nodeEnv: string): string {
  if (nodeEnv === "production") {
    throw new EnvError("Invalid settings:\n  SECRET_KEY: required in production (at least 32 characters)");
  }
  const file = path.join(dataDir, "secret-key");
  if (existsSync(file)) return readFileSync(file, "utf8").trim();
  mkdirSync(dataDir, { recursive: true });
  const key = randomBytes(32).toString("base64url");
  try {
    writeFileSync(file, `${key}\n`, { mode: 0o600, flag: "wx" });
    return key;
  } catch {
    // Another process created it first: use theirs so every process agrees.
    return readFileSync(file, "utf8").trim();
  }
}

const units = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;

/** "10s" -> 10000. */
export function parseDuration(text: string): number {
  const match = /^(\d+)(ms|s|m|h|d)$/.exec(text);
  if (!match) throw new EnvError(`not a duration: ${text}`);
  return Number(match[1]) * units[match[2] as keyof typeof units];
}
