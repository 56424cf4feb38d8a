import { safeEqual } from "@/server/crypto";
import { EMPTY_BODY_SHA256, canonicalQuery, signCanonical, type CanonicalParts } from "@/server/signing/canonical";
import type { SignatureDebug } from "@/server/services/request-log";

// The sandbox signature debugger. When a sandbox request's signature does not
// match, the server re-signs a few likely mistakes with the key's secrets; the
// one that matches names the part the partner got wrong. A handful of HMACs
// (microseconds each), only for refused sandbox requests; never for live keys.

interface DiagnoseInput {
  signature: string;
  /** The current secret, the one in its grace (if any), the one whose grace ended (if any). */
  secrets: readonly [string, string | undefined, string | undefined];
  parts: CanonicalParts & { query: string };
  canonical: string;
}

interface Mistake {
  failed: SignatureDebug["failed"];
  explanation: string;
  /** The canonical string a partner making this mistake would have signed. */
  signed: string;
}

function likelyMistakes(parts: CanonicalParts & { query: string }): Mistake[] {
  const rawQuery = parts.query.startsWith("?") ? parts.query.slice(1) : parts.query;
  const lines = (over: Partial<Record<"path" | "query" | "bodySha256", string>>) =>
    [parts.method.toUpperCase(), over.path ?? parts.path, over.query ?? canonicalQuery(parts.query), parts.timestamp, parts.nonce, over.bodySha256 ?? parts.bodySha256].join("\n");
  const mistakes: Mistake[] = [
    {
      failed: "body_hash",
      explanation: "Your signature matches an empty body, but the request has one. Hash the exact bytes you send (SHA-256, lowercase hex), after serialising the JSON once.",
      signed: lines({ bodySha256: EMPTY_BODY_SHA256 }),
    },
  ];
  if (rawQuery) {
    mistakes.push(
      {
        failed: "query",
        explanation: "Your signature matches the request without its query string. Put the canonical query (sorted, RFC 3986-encoded) on the third line.",
        signed: lines({ query: "" }),
      },
      {
        failed: "query",
        explanation: "Your signature matches the query string as sent, not its canonical form. Sort the pairs by key then value and encode each with RFC 3986 (%20 for a space).",
        signed: lines({ query: rawQuery }),
      },
    );
  }
  const path = parts.path;
  for (const other of new Set([path.endsWith("/") ? path.slice(0, -1) : `${path}/`, path.replace(/^\/api\/partner\/v1/, "") || "/"])) {
    if (other === path) continue;
    mistakes.push({ failed: "path", explanation: `Your signature matches the path ${other}; sign the path exactly as requested: ${path}.`, signed: lines({ path: other }) });
  }
  return mistakes;
}

export function diagnoseSignature(input: DiagnoseInput): SignatureDebug {
  const base = { canonicalString: input.canonical, bodySha256: input.parts.bodySha256 };
  const [current, grace, expired] = input.secrets;
  const matches = (secret: string | undefined, text: string) => secret !== undefined && safeEqual(signCanonical(secret, text), input.signature);
  if (matches(expired, input.canonical)) {
    return { ...base, failed: "expired_secret", explanation: "This request is signed with the key's previous secret, whose grace period has ended. Sign with the current secret." };
  }
  for (const mistake of likelyMistakes(input.parts)) {
    if (matches(current, mistake.signed) || matches(grace, mistake.signed)) return { ...base, failed: mistake.failed, explanation: mistake.explanation };
  }
  return {
    ...base,
    failed: "signature",
    explanation:
      "The signature does not match the canonical string below. Sign with this key's current secret, send `v1=` plus lowercase hex, and compare your canonical string with ours line by line: method, path, canonical query, timestamp, nonce, body SHA-256.",
  };
}
