import type { BadgeTone } from "@/components/ui";

// Labels and tones shared by the request list and its detail panel.

/** The error codes a signed request can be answered with, as the filter offers them. */
export const ERROR_CODES = [
  "invalid_signature",
  "invalid_timestamp",
  "replay_detected",
  "ip_not_allowed",
  "forbidden",
  "validation_error",
  "not_found",
  "rate_limited",
  "conflict",
  "internal_error",
] as const;

export const STATUS_FILTERS = [
  { value: "", label: "All statuses" },
  { value: "2xx", label: "2xx success" },
  { value: "4xx", label: "4xx client error" },
  { value: "5xx", label: "5xx server error" },
  { value: "400", label: "400 Bad request" },
  { value: "401", label: "401 Unauthorized" },
  { value: "403", label: "403 Forbidden" },
  { value: "404", label: "404 Not found" },
  { value: "409", label: "409 Conflict" },
  { value: "422", label: "422 Unprocessable" },
  { value: "429", label: "429 Too many requests" },
  { value: "500", label: "500 Server error" },
] as const;

/** What requests.list accepts; anything else in the URL is ignored rather than failing the page. */
export const STATUS_PATTERN = /^([2-5]xx|[1-5]\d\d)$/;

export function statusTone(status: number): BadgeTone {
  if (status >= 500) return "danger";
  if (status >= 400) return "warning";
  if (status >= 200 && status < 300) return "success";
  return "neutral";
}

export type DebugFailure = "timestamp_skew" | "nonce_reuse" | "signature" | "body_hash" | "query" | "path" | "expired_secret";

/** The failed part in plain words, and the canonical line (0-based) it concerns. */
export const FAILURES: Record<DebugFailure, { title: string; line?: number }> = {
  timestamp_skew: { title: "The timestamp is too far from the server's clock", line: 3 },
  nonce_reuse: { title: "The nonce was used before (a replayed request)", line: 4 },
  signature: { title: "The signature does not match" },
  body_hash: { title: "The body hash does not match the body sent", line: 5 },
  query: { title: "The query string was signed differently", line: 2 },
  path: { title: "The path was signed differently", line: 1 },
  expired_secret: { title: "Signed with a secret that has expired" },
};

export const CANONICAL_LINES = ["Method", "Path", "Canonical query", "Timestamp", "Nonce", "Body SHA-256"] as const;

const latencyFormat = new Intl.NumberFormat("en-US");

export function formatLatency(ms: number): string {
  return `${latencyFormat.format(ms)} ms`;
}
