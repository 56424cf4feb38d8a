// npm run --silent partner -- METHOD PATH [json-body | @file | -] [--idempotency-key K] [--include]
// A signed partner request from the terminal. Credentials: PARTNER_KEY_ID and
// PARTNER_SECRET, else the seeded demo MoR sandbox credential. Base URL:
// PARTNER_BASE_URL, else APP_URL. Status on stderr, body on stdout; exit 0 on 2xx.
import { readFileSync } from "node:fs";
import { closeDb, getDb } from "@/db/client";
import { ensureDatabase } from "@/db/embedded";
import { getDemoCredential } from "@/db/seed";
import { parseArgs, printError } from "@/server/cli/args";
import { getEnv } from "@/server/env";
import { AppError } from "@/server/errors";
import { createPartnerClient, type PartnerCredentials } from "@/server/signing/client";

const USAGE = "usage: npm run --silent partner -- GET '/api/partner/v1/availability?domain=example.com' [json-body] [--idempotency-key K]";

async function credentials(): Promise<PartnerCredentials> {
  const { PARTNER_KEY_ID: keyId, PARTNER_SECRET: secret } = process.env;
  if (keyId && secret) return { keyId, secret };
  if (keyId || secret) throw new AppError("validation_error", "set both PARTNER_KEY_ID and PARTNER_SECRET, or neither");
  await ensureDatabase();
  try {
    return await getDemoCredential(getDb());
  } finally {
    await closeDb();
  }
}

function readBody(arg: string | undefined): string | undefined {
  if (arg === undefined) return undefined;
  if (arg === "-") return readFileSync(0, "utf8");
  if (arg.startsWith("@")) return readFileSync(arg.slice(1), "utf8");
  return arg; // sent byte for byte as given: the signature covers the raw body
}

async function main(): Promise<number> {
  const { positionals, flags } = parseArgs(process.argv.slice(2), new Set(["include"]));
  const [method, target, bodyArg, extra] = positionals;
  if (!method || !target || extra !== undefined) throw new AppError("validation_error", USAGE);
  const unknown = Object.keys(flags).filter((f) => f !== "idempotency-key" && f !== "include");
  if (unknown.length) throw new AppError("validation_error", `unknown flag --${unknown[0]}; ${USAGE}`);

  // Short paths are partner API paths: "/availability?domain=x" means /api/partner/v1/availability.
  const url = target.startsWith("/api/") ? target : `/api/partner/v1${target.startsWith("/") ? "" : "/"}${target}`;
  const baseUrl = process.env.PARTNER_BASE_URL || getEnv().APP_URL;
  const client = createPartnerClient({ ...(await credentials()), baseUrl });
  const idempotencyKey = typeof flags["idempotency-key"] === "string" ? flags["idempotency-key"] : undefined;

  const started = performance.now();
  let response;
  try {
    response = await client.request(method.toUpperCase(), url, readBody(bodyArg), { idempotencyKey });
  } catch (error) {
    throw new AppError("internal_error", `could not reach ${baseUrl} (is \`npm start\` running?): ${(error as Error).message}`);
  }
  const ms = Math.round(performance.now() - started);
  process.stderr.write(`${method.toUpperCase()} ${url} -> ${response.status} (${ms} ms)\n`);
  if (flags.include) for (const [name, value] of response.headers) process.stderr.write(`${name}: ${value}\n`);
  const body = response.body;
  process.stdout.write(`${typeof body === "string" ? body : JSON.stringify(body, null, 2)}\n`);
  return response.status >= 200 && response.status < 300 ? 0 : 1;
}

let exitCode = 1;
try {
  exitCode = await main();
} catch (error) {
  printError(error);
}
process.exit(exitCode);
