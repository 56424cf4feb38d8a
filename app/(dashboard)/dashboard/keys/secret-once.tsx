"use client";

import { Alert, CodeBlock, CopyButton } from "@/components/ui";

// A key's secret, shown once (after creating or rolling it), with the commands
// that use it: the project's signing CLI and plain curl + openssl.

const EMPTY_BODY_SHA256 = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";

export function examples(baseUrl: string, keyId: string, secret: string) {
  const path = "/api/partner/v1/availability";
  const query = "domain=example.com";
  const cli = [
    `export PARTNER_BASE_URL=${baseUrl}`,
    `export PARTNER_KEY_ID=${keyId}`,
    `export PARTNER_SECRET=${secret}`,
    `npm run --silent partner -- GET '${path}?${query}'`,
  ].join("\n");
  const curl = [
    `KEY_ID=${keyId}`,
    `SECRET=${secret}`,
    `TS=$(date +%s); NONCE=$(openssl rand -hex 16)`,
    `SIG=$(printf 'GET\\n${path}\\n${query}\\n%s\\n%s\\n${EMPTY_BODY_SHA256}' "$TS" "$NONCE" \\`,
    `  | openssl dgst -sha256 -hmac "$SECRET" | sed 's/^.* //')`,
    `curl -s '${baseUrl}${path}?${query}' \\`,
    `  -H "X-Service-Key-Id: $KEY_ID" -H "X-Service-Timestamp: $TS" \\`,
    `  -H "X-Service-Nonce: $NONCE" -H "X-Service-Signature: v1=$SIG"`,
  ].join("\n");
  return { cli, curl };
}

export function SecretOnce({ keyId, secret, graceNote }: { keyId: string; secret: string; graceNote?: string }) {
  const baseUrl = typeof window === "undefined" ? "" : window.location.origin;
  const { cli, curl } = examples(baseUrl, keyId, secret);
  return (
    <div className="space-y-4 text-sm">
      <Alert tone="warning" title="Copy the secret now">
        It is shown only this once. Keep it on your server (an environment variable or a secret manager), never in a browser or app.
        {graceNote ? ` ${graceNote}` : null}
      </Alert>
      <dl className="space-y-3">
        <div>
          <dt className="font-medium text-ink">Key id</dt>
          <dd className="mt-1 flex items-center gap-2">
            <code className="min-w-0 flex-1 truncate rounded bg-subtle px-2 py-1 font-mono text-xs" data-testid="new-key-id">
              {keyId}
            </code>
            <CopyButton value={keyId} label="Copy key id" />
          </dd>
        </div>
        <div>
          <dt className="font-medium text-ink">Secret</dt>
          <dd className="mt-1 flex items-center gap-2">
            <code className="min-w-0 flex-1 truncate rounded bg-subtle px-2 py-1 font-mono text-xs" data-testid="new-key-secret">
              {secret}
            </code>
            <CopyButton value={secret} label="Copy secret" />
          </dd>
        </div>
      </dl>
      <details className="rounded-lg border border-line">
        <summary className="cursor-pointer px-3 py-2 font-medium text-ink">Try it: a signed request</summary>
        <div className="space-y-3 px-3 pb-3">
          <div>
            <div className="mb-1 flex items-center justify-between gap-2">
              <span className="text-xs text-muted">With this project&apos;s signing CLI</span>
              <CopyButton value={cli} label="Copy CLI example" />
            </div>
            <CodeBlock className="max-h-40 overflow-auto text-xs" tabIndex={0} aria-label="CLI example">
              {cli}
            </CodeBlock>
          </div>
          <div>
            <div className="mb-1 flex items-center justify-between gap-2">
              <span className="text-xs text-muted">With curl and openssl</span>
              <CopyButton value={curl} label="Copy curl example" />
            </div>
            <CodeBlock className="max-h-48 overflow-auto text-xs" tabIndex={0} aria-label="curl example" data-testid="curl-example">
              {curl}
            </CodeBlock>
          </div>
        </div>
      </details>
    </div>
  );
}
