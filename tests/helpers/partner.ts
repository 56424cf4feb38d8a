import { randomBytes } from "node:crypto";
import { getDb } from "@/db/client";
import type { Environment } from "@/db/schema";
import { scopes as allScopes, type Scope } from "@/server/http/contract";
import type { RouteHandler } from "@/server/http/partner-route";
import { createCredential, createPartner } from "@/server/services/partners";
import { signRequest, type PartnerCredentials } from "@/server/signing/client";

// Integration-test helpers: real partners and credentials in the real database,
// and signed requests handed straight to a route's exported handler.

export const BASE = "http://localhost:3000";

export function uniqueSuffix(): string {
  return randomBytes(5).toString("hex");
}

export interface TestCredential extends PartnerCredentials {
  environment: Environment;
  scopes: Scope[];
}

export async function createTestPartner(
  options: {
    paymentModel?: "mor" | "non_mor";
    scopes?: Scope[];
    environment?: Environment;
    isAffiliate?: boolean;
  } = {},
) {
  const db = getDb();
  const suffix = uniqueSuffix();
  const partner = await createPartner(db, {
    name: `Test Partner ${suffix}`,
    email: `partner-${suffix}@test.example`,
    paymentModel: options.paymentModel ?? "mor",
    isAffiliate: options.isAffiliate ?? false,
    liveApproved: true,
  });
  const credential = await addCredential(partner.partnerId, options.environment ?? "sandbox", options.scopes ?? [...allScopes]);
  return { partnerId: partner.partnerId, email: partner.email, credential };
}

export async function addCredential(partnerId: string, environment: Environment, scopes: Scope[]): Promise<TestCredential> {
  const created = await createCredential(getDb(), { partnerId, environment, scopes });
  return { keyId: created.keyId, secret: created.secret, environment, scopes };
}

export interface CallOptions {
  method?: string;
  /** Path with query, e.g. `/api/partner/v1/availability?domain=x.com`. */
  url: string;
  credential?: PartnerCredentials;
  body?: unknown;
  params?: Record<string, string | string[]>;
  /** Replace or drop (undefined) headers after signing. */
  headers?: Record<string, string | undefined>;
  timestamp?: number;
  nonce?: string;
}

export interface CallResult<T = Record<string, unknown>> {
  status: number;
  headers: Headers;
  body: T;
}

/** Sign like a partner would and call the route handler in-process. */
export async function callRoute<T = Record<string, unknown>>(handler: RouteHandler, options: CallOptions): Promise<CallResult<T>> {
  const method = options.method ?? "GET";
  const raw = options.body === undefined ? undefined : typeof options.body === "string" ? options.body : JSON.stringify(options.body);
  const signed = options.credential
    ? signRequest(options.credential, { method, url: options.url, body: raw, timestamp: options.timestamp, nonce: options.nonce })
    : {};
  const headers = new Headers(raw === undefined ? {} : { "content-type": "application/json" });
  for (const [name, value] of Object.entries({ ...signed, ...options.headers })) {
    if (value === undefined) headers.delete(name);
    else headers.set(name, value);
  }
  const request = new Request(`${BASE}${options.url}`, { method, headers, body: raw });
  const response = await handler(request, { params: Promise.resolve(options.params ?? {}) });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: (text ? JSON.parse(text) : null) as T };
}
