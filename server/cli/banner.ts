import { demoLogins } from "@/db/seed";

// The text `npm start` prints once the service answers: everything needed to
// try it, so a newcomer never has to read the database to find a login or key.

export interface BannerInput {
  appUrl: string;
  mcpUrl: string;
  startedInMs: number;
  timings: [string, number][];
  demo?: { keyId: string; secret: string; exampleDomain?: string };
  /** Demo data is loaded but its logins and keys are not printed (production). */
  demoHidden?: boolean;
  /** Where the data lives, e.g. the embedded cluster's folder. */
  database: string;
  /** Settings the example command needs in another terminal, e.g. DATA_DIR=/tmp/x. */
  examplePrefix: string;
  /** Which processors hosted checkout pays through (paymentsLine). */
  payments?: string;
}

/** The banner's payments line: live on or off, and what the sandbox uses. */
export function paymentsLine(stripe: { live: { secretKey: string } | null; test: object | null; apiUrl: string | null }): string {
  const live = stripe.live
    ? `live payments on (Stripe${stripe.live.secretKey.includes("_test_") ? ", test-mode key" : ""}${stripe.apiUrl ? ` at ${stripe.apiUrl}` : ""})`
    : "live payments OFF: set STRIPE_SECRET_KEY, STRIPE_PUBLISHABLE_KEY, STRIPE_WEBHOOK_SECRET to take real payments";
  return `${live}; sandbox checkout: ${stripe.test ? "Stripe test mode" : "built-in simulated processor"}`;
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

export function startBanner(input: BannerInput): string {
  const rule = "─".repeat(72);
  const lines = [
    rule,
    ` Partner Domain Marketplace is ready at ${input.appUrl}   (started in ${seconds(input.startedInMs)})`,
    `   ${input.timings.map(([step, ms]) => `${step} ${seconds(ms)}`).join(", ")}`,
    `   database: ${input.database}`,
    ...(input.payments ? [`   payments: ${input.payments}`] : []),
    "",
  ];
  if (input.demo) {
    const { mor, nonMor, admin, buyer } = demoLogins;
    const example = `${input.examplePrefix}npm run --silent partner -- GET '/api/partner/v1/availability?domain=${input.demo.exampleDomain ?? "example.com"}'`;
    lines.push(
      " Demo logins",
      `   MoR partner      ${mor.email} / ${mor.password}        (${mor.name}, live approved)`,
      `   non-MoR partner  ${nonMor.email} / ${nonMor.password}     (${nonMor.name}, affiliate)`,
      `   admin            ${admin.email} / ${admin.password}`,
      `   buyer            ${buyer.email} / ${buyer.password}      (marketplace and OAuth sign-in)`,
      "",
      ` Sandbox credential of ${mor.name} (all scopes)`,
      `   key id   ${input.demo.keyId}`,
      `   secret   ${input.demo.secret}`,
      "",
      " Try a signed request (another terminal):",
      `   ${example}`,
      "",
    );
  } else if (input.demoHidden) {
    lines.push(" Demo data is loaded (SEED_DEMO=true); in production its logins and keys are not printed.", "");
  } else {
    lines.push(" Demo data skipped (SEED_DEMO=false, or production): create partners with `npm run --silent admin -- help`.", "");
  }
  lines.push(
    ` Health ${input.appUrl}/api/health   API reference ${input.appUrl}/docs/api   Operations: npm run --silent admin -- help`,
    " Ctrl+C stops the web server; the embedded database keeps running until `npm run db:stop`.",
    rule,
  );
  return lines.join("\n");
}
