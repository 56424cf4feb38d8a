// /brokerage/[token] - the buyer's no-login progress page of a brokerage case
import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { SiteFooter } from "@/components/shell/site-footer";
import { SiteHeader } from "@/components/shell/site-header";
import { Badge, Card, CardContent, CardDescription, CardHeader, CardTitle, cn, type BadgeTone } from "@/components/ui";
import { getDb } from "@/db/client";
import { getCaseByProgressToken, isWellFormedProgressToken, type BrokerageStatus } from "@/server/services/brokerage";

// The token in the URL is the only credential: the page is never indexed, sends
// no referrer (so links out do not leak it) and is rendered per request. It shows
// what the buyer needs (status, history, next step) and nothing of the partner's
// economics (fee, share) or the budget.

export const dynamic = "force-dynamic";

export const metadata: Metadata = {
  title: "Brokerage progress",
  robots: { index: false, follow: false, nocache: true },
  referrer: "no-referrer",
};

const steps: { status: BrokerageStatus; label: string; description: string }[] = [
  { status: "OPEN", label: "Received", description: "Your request is in our queue." },
  { status: "RESEARCHING", label: "Researching", description: "Finding and contacting the owner." },
  { status: "NEGOTIATING", label: "Negotiating", description: "Agreeing a price with the owner." },
  { status: "COMPLETED", label: "Deal closed", description: "The domain is being transferred." },
];

const statusLabels: Record<BrokerageStatus, string> = {
  OPEN: "Received",
  RESEARCHING: "Researching",
  NEGOTIATING: "Negotiating",
  COMPLETED: "Deal closed",
  CLOSED_NO_DEAL: "Closed without a deal",
};

const statusTones: Record<BrokerageStatus, BadgeTone> = {
  OPEN: "info",
  RESEARCHING: "brand",
  NEGOTIATING: "warning",
  COMPLETED: "success",
  CLOSED_NO_DEAL: "neutral",
};

const nextSteps: Record<BrokerageStatus, string> = {
  OPEN: "A broker will pick up your case and start researching who owns the domain, usually within two business days.",
  RESEARCHING:
    "We are identifying the current owner and reaching out. Owners can take time to reply; we follow up for you.",
  NEGOTIATING:
    "The owner has responded and we are negotiating within your budget. You will be asked to approve any price before it is agreed.",
  COMPLETED:
    "The deal is closed. You will receive transfer instructions by email; the domain moves to you once payment clears.",
  CLOSED_NO_DEAL:
    "We could not reach an agreement this time. Nothing is owed. You are welcome to open a new request later.",
};

const tierLabels: Record<string, string> = { managed: "Managed brokerage", self_serve: "Self-serve brokerage" };

function formatDate(at: Date): string {
  return `${at.toLocaleString("en-US", { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" })} UTC`;
}

function formatMoney(cents: number, currency: string): string {
  return new Intl.NumberFormat("en-US", { style: "currency", currency }).format(cents / 100);
}

export default async function BrokerageProgressPage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  // A link that is not even shaped like ours answers 400 (set by proxy.ts) with this explanation.
  if (!isWellFormedProgressToken(decodeURIComponent(token))) return <InvalidLink />;
  const found = await getCaseByProgressToken(getDb(), token);
  if (!found) notFound();
  const { row, timeline } = found;
  const closedNoDeal = row.status === "CLOSED_NO_DEAL";
  // How far the case got: for a case closed without a deal, the last open state it reached.
  const reached = closedNoDeal
    ? Math.max(0, ...timeline.map((e) => steps.findIndex((s) => s.status === e.status)))
    : steps.findIndex((s) => s.status === row.status);

  return (
    <>
      <SiteHeader />
      <main id="main" className="flex-1">
        <div className="mx-auto max-w-3xl px-4 py-10 sm:px-6 sm:py-14">
          <p className="text-sm font-medium text-muted">{tierLabels[row.tier] ?? "Brokerage"} · case progress</p>
          <div className="mt-2 flex flex-wrap items-center gap-3">
            <h1 className="text-3xl font-semibold tracking-tight break-all text-ink" data-testid="case-domain">
              {row.domain}
            </h1>
            <Badge tone={statusTones[row.status]} data-testid="case-status" data-status={row.status}>
              {statusLabels[row.status]}
            </Badge>
          </div>
          <p className="mt-2 text-sm text-muted">
            Opened <time dateTime={row.createdAt.toISOString()}>{formatDate(row.createdAt)}</time>
            {row.status === "COMPLETED" && row.finalPriceCents !== null ? (
              <> · agreed price {formatMoney(row.finalPriceCents, row.currency)}</>
            ) : null}
          </p>

          <Card className="mt-8">
            <CardContent>
              <h2 className="sr-only">Progress</h2>
              <ol aria-label="Progress" className="grid gap-4 sm:grid-cols-4 sm:gap-2">
                {steps.map((step, index) => {
                  const done = index < reached || (index === reached && row.status === "COMPLETED");
                  const current = index === reached && !closedNoDeal && row.status !== "COMPLETED";
                  const stoppedHere = closedNoDeal && index === reached;
                  return (
                    <li
                      key={step.status}
                      aria-current={current ? "step" : undefined}
                      className="flex gap-3 sm:flex-col sm:gap-2"
                      data-testid={`step-${step.status}`}
                    >
                      <div className="flex items-center gap-2 sm:w-full">
                        <span
                          aria-hidden="true"
                          className={cn(
                            "flex size-8 shrink-0 items-center justify-center rounded-full text-sm font-semibold ring-1 ring-inset",
                            done && "bg-brand text-white ring-brand",
                            current && "bg-brand-soft text-brand-ink ring-2 ring-brand",
                            stoppedHere && "bg-subtle text-muted ring-line-strong",
                            !done && !current && !stoppedHere && "bg-surface text-faint ring-line-strong",
                          )}
                        >
                          {done ? "✓" : stoppedHere ? "×" : index + 1}
                        </span>
                        {index < steps.length - 1 ? (
                          <span
                            aria-hidden="true"
                            className={cn("hidden h-0.5 flex-1 rounded sm:block", index < reached ? "bg-brand" : "bg-line")}
                          />
                        ) : null}
                      </div>
                      <div>
                        <p className={cn("text-sm font-semibold", current || done ? "text-ink" : "text-muted")}>
                          {step.label}
                          <span className="sr-only">
                            {done ? " (done)" : current ? " (current step)" : stoppedHere ? " (closed here)" : " (upcoming)"}
                          </span>
                        </p>
                        <p className="text-xs text-muted">{step.description}</p>
                      </div>
                    </li>
                  );
                })}
              </ol>
            </CardContent>
          </Card>

          <section
            aria-labelledby="next-title"
            className={cn(
              "mt-6 rounded-xl border px-5 py-4 sm:px-6",
              row.status === "COMPLETED"
                ? "border-success-ink/15 bg-success-soft"
                : closedNoDeal
                  ? "border-line bg-subtle"
                  : "border-brand/15 bg-brand-soft",
            )}
          >
            <h2 id="next-title" className="text-sm font-semibold text-ink">
              {row.closedAt ? "Outcome" : "What happens next"}
            </h2>
            <p className="mt-1 text-sm text-muted" data-testid="next-step">
              {nextSteps[row.status]}
            </p>
          </section>

          <Card className="mt-6">
            <CardHeader>
              <CardTitle>History</CardTitle>
              <CardDescription>Every update on this case, newest first. Times are UTC.</CardDescription>
            </CardHeader>
            <CardContent>
              <ol className="space-y-5 border-l border-line pl-5" data-testid="timeline">
                {[...timeline].reverse().map((entry) => (
                  <li key={entry.id} className="relative">
                    <span
                      aria-hidden="true"
                      className="absolute top-1.5 -left-[25px] size-2.5 rounded-full bg-brand ring-4 ring-surface"
                    />
                    <div className="flex flex-wrap items-baseline gap-x-3 gap-y-1">
                      <p className="text-sm font-semibold text-ink">{statusLabels[entry.status]}</p>
                      <time dateTime={entry.at.toISOString()} className="text-xs text-faint">
                        {formatDate(entry.at)}
                      </time>
                    </div>
                    {entry.note ? <p className="mt-1 text-sm text-muted">{entry.note}</p> : null}
                  </li>
                ))}
              </ol>
            </CardContent>
          </Card>

          <p className="mt-8 text-xs text-faint">
            This page is private to you: anyone with the link can see it, so share it only with people you trust. It is
            not listed in search engines.
          </p>
        </div>
      </main>
      <SiteFooter />
    </>
  );
}

function InvalidLink() {
  return (
    <>
      <SiteHeader />
      <main id="main" className="flex flex-1 flex-col items-center justify-center px-4 py-24 text-center" data-testid="progress-invalid">
        <p className="text-sm font-semibold text-brand">Invalid link</p>
        <h1 className="mt-2 text-3xl font-semibold tracking-tight text-ink">This progress link is not valid</h1>
        <p className="mt-3 max-w-md text-muted">
          The link is incomplete or has been altered. Open it again from the email or page that gave it to you, or ask the seller for the link to your case.
        </p>
      </main>
      <SiteFooter />
    </>
  );
}
