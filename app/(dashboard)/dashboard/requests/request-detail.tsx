"use client";

import { skipToken, useQuery } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { useTRPC } from "@/app/providers";
import { API_REFERENCE_URL } from "@/components/shell/brand";
import {
  Alert,
  Badge,
  Code,
  CodeBlock,
  CopyButton,
  Dialog,
  DialogContent,
  ErrorState,
  formatExact,
  LoadingRows,
  RelativeTime,
} from "@/components/ui";
import { cn } from "@/components/ui/cn";
import type { Environment } from "@/db/schema";
import { CANONICAL_LINES, FAILURES, formatLatency, statusTone, type DebugFailure } from "./request-format";

// One request of the log in a dialog (?request=<id>). For refused sandbox
// requests the server also returns what its signature debugger found: the part
// that failed, in words, and the canonical string it computed, line by line.

export function RequestDetail({ id, environment, onClose }: { id: number | null; environment: Environment; onClose: () => void }) {
  const trpc = useTRPC();
  const detail = useQuery(trpc.requests.get.queryOptions(id === null ? skipToken : { id }));
  const request = detail.data;

  return (
    <Dialog open={id !== null} onOpenChange={(open) => (open ? undefined : onClose())}>
      <DialogContent
        title={
          request ? (
            <span className="font-mono text-base break-words">
              {request.method} {breakable(request.path)}
            </span>
          ) : (
            "Request"
          )
        }
        description={request ? `Logged ${formatExact(new Date(request.createdAt))} in ${environment}` : `A request of the ${environment} log`}
        className="sm:max-w-2xl lg:max-w-3xl"
      >
        <div data-testid="request-detail">
          {detail.isPending ? (
            <LoadingRows label="Loading the request…" rows={5} />
          ) : detail.isError ? (
            <ErrorState
              title={detail.error.data?.code === "not_found" ? "This request is not in the log" : "We couldn't load this request"}
              error={
                detail.error.data?.code === "not_found"
                  ? { message: `It may belong to the other environment, or be older than 30 days (the log keeps 30 days of ${environment} requests).` }
                  : detail.error
              }
              onRetry={detail.error.data?.code === "not_found" ? undefined : () => detail.refetch()}
            />
          ) : request ? (
            <div className="space-y-6">
              <dl className="grid grid-cols-2 gap-x-6 gap-y-4 text-sm">
                <Item label="Status">
                  <Badge tone={statusTone(request.status)} className="font-mono">
                    {request.status}
                  </Badge>
                  {request.errorCode ? <Code className="ml-2">{request.errorCode}</Code> : null}
                </Item>
                <Item label="Time">
                  <RelativeTime value={request.createdAt} />
                </Item>
                <Item label="Latency">
                  <span className="tabular-nums">{formatLatency(request.latencyMs)}</span>
                </Item>
                <Item label="Client IP">
                  {request.clientIp ? <span className="font-mono">{request.clientIp}</span> : <span className="text-faint">Not recorded</span>}
                </Item>
                <Item label="Request ID" wide>
                  <IdValue value={request.requestId} label="Copy request id" />
                </Item>
                <Item label="Key" wide>
                  <IdValue value={request.keyId} label="Copy key id" />
                </Item>
              </dl>

              {request.debug ? (
                <SignatureDebugger debug={request.debug} />
              ) : environment === "live" && request.status === 401 ? (
                <p className="text-sm text-muted">
                  The signature debugger runs for sandbox keys only. Reproduce the call with a sandbox key to see which part
                  of the signature differs.
                </p>
              ) : null}
            </div>
          ) : null}
        </div>
      </DialogContent>
    </Dialog>
  );
}

/** A path that wraps after its slashes rather than mid-word. */
function breakable(path: string): ReactNode[] {
  return path.split("/").flatMap((part, index) => (index === 0 ? [part] : [<wbr key={index} />, `/${part}`]));
}

function Item({ label, wide, children }: { label: string; wide?: boolean; children: ReactNode }) {
  return (
    <div className={cn("min-w-0", wide && "max-sm:col-span-2")}>
      <dt className="text-xs font-medium tracking-wide text-muted uppercase">{label}</dt>
      <dd className="mt-1 flex min-w-0 flex-wrap items-center text-ink">{children}</dd>
    </div>
  );
}

function IdValue({ value, label }: { value: string; label: string }) {
  return (
    <span className="flex min-w-0 items-center gap-1">
      <span className="truncate font-mono text-[0.8125rem]" title={value}>
        {value}
      </span>
      <CopyButton value={value} label={label} />
    </span>
  );
}

interface SignatureDebug {
  failed: DebugFailure;
  explanation: string;
  canonicalString?: string;
  bodySha256?: string;
  serverTime?: number;
  skewSeconds?: number;
}

/** `code` spans of the server's sentence as <Code>. */
function withCode(text: string): ReactNode[] {
  return text.split("`").map((part, index) => (index % 2 === 1 ? <Code key={index}>{part}</Code> : part));
}

function SignatureDebugger({ debug }: { debug: SignatureDebug }) {
  const failure = FAILURES[debug.failed] ?? { title: debug.failed };
  const lines = debug.canonicalString?.split("\n");
  return (
    <section aria-labelledby="signature-debugger-title" className="space-y-4 border-t border-line pt-5" data-testid="signature-debugger">
      <div className="flex flex-wrap items-center gap-2">
        <h3 id="signature-debugger-title" className="text-base font-semibold tracking-tight text-ink">
          Signature debugger
        </h3>
        <Badge tone="warning">Sandbox only</Badge>
      </div>

      <Alert tone="warning" title={failure.title} data-testid="debug-failed" data-failed={debug.failed}>
        <p data-testid="debug-explanation">{withCode(debug.explanation)}</p>
      </Alert>

      {debug.serverTime !== undefined || debug.skewSeconds !== undefined ? (
        <dl className="grid gap-4 text-sm sm:grid-cols-2">
          {debug.serverTime !== undefined ? (
            <Item label="Server time">
              <span className="font-mono">{debug.serverTime}</span>
              <span className="ml-2 text-xs text-faint">{formatExact(new Date(debug.serverTime * 1000))}</span>
            </Item>
          ) : null}
          {debug.skewSeconds !== undefined ? (
            <Item label="Clock skew">
              <span className="tabular-nums">
                {debug.skewSeconds > 0
                  ? `Your timestamp is ${debug.skewSeconds} s behind the server`
                  : debug.skewSeconds < 0
                    ? `Your timestamp is ${-debug.skewSeconds} s ahead of the server`
                    : "None"}
              </span>
            </Item>
          ) : null}
        </dl>
      ) : null}

      {debug.canonicalString && lines ? (
        <div className="space-y-2">
          <div className="flex flex-wrap items-center justify-between gap-2">
            <p className="text-sm font-medium text-ink">The canonical string the server signed</p>
            <CopyButton value={debug.canonicalString} label="Copy canonical string" size="sm" />
          </div>
          <p className="text-xs text-muted">
            Six lines joined with <Code>\n</Code>, no trailing newline. Compare it with yours line by line
            {failure.line !== undefined ? "; the highlighted line is the one to check" : ""}.
          </p>
          <CodeBlock data-testid="canonical-string" aria-label="Canonical string, line by line">
            {lines.map((line, index) => {
              const flagged = index === failure.line;
              return (
                <span
                  key={index}
                  className={cn("-mx-2 flex flex-col rounded px-2 sm:flex-row sm:gap-4", flagged && "bg-amber-400/15 ring-1 ring-amber-300/40")}
                  data-line={CANONICAL_LINES[index] ?? index + 1}
                >
                  <span className={cn("shrink-0 select-none sm:w-36", flagged ? "text-amber-200" : "text-slate-400")}>
                    {index + 1}. {CANONICAL_LINES[index] ?? "extra line"}
                    {flagged ? <span className="sr-only"> (check this line)</span> : null}
                  </span>
                  <span className="whitespace-pre">{line === "" ? <span className="text-slate-500 italic select-none">(empty)</span> : line}</span>
                </span>
              );
            })}
          </CodeBlock>
        </div>
      ) : null}

      <div className="rounded-lg bg-subtle px-4 py-3 text-sm text-muted ring-1 ring-line">
        <p className="font-medium text-ink">How to sign a request</p>
        <ol className="mt-2 list-decimal space-y-1 pl-5">
          <li>
            Build the canonical string: method, path, canonical query (pairs sorted, RFC 3986-encoded), Unix timestamp,
            a fresh nonce and the SHA-256 (lowercase hex) of the exact body bytes.
          </li>
          <li>
            Sign it with HMAC-SHA256 and the key&apos;s secret; send <Code>v1=</Code> plus lowercase hex.
          </li>
          <li>
            Send <Code className="whitespace-nowrap">X-Service-Key-Id</Code>, <Code className="whitespace-nowrap">X-Service-Timestamp</Code>,{" "}
            <Code className="whitespace-nowrap">X-Service-Nonce</Code> and{" "}
            <Code className="whitespace-nowrap">X-Service-Signature</Code> with the request.
          </li>
        </ol>
        <p className="mt-2">
          <a href={API_REFERENCE_URL} className="font-medium text-brand-ink underline underline-offset-2 hover:no-underline">
            Full rules in the API reference
          </a>
        </p>
      </div>
    </section>
  );
}
