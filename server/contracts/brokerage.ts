import { z } from "zod";
import { defineEndpoint } from "@/server/http/contract";
import { currencyCode, domainNameInput, listEnvelope, listQuery, moneyCents, timestamp, isoInstant } from "./common";

// Brokerage (SPEC "Brokerage", DECISIONS "Brokerage case"): a partner opens a
// case to acquire an unlisted domain for its buyer; staff move it through its
// states; the partner's share of the service fee is paid out at settlement.
// Every decision the spec leaves open is written into these descriptions.

export const brokerageStatuses = ["OPEN", "RESEARCHING", "NEGOTIATING", "COMPLETED", "CLOSED_NO_DEAL"] as const;
export const openBrokerageStatuses = ["OPEN", "RESEARCHING", "NEGOTIATING"] as const;
export const brokerageTiers = ["managed", "self_serve"] as const;

/** Service fee in basis points of the final price, per tier. */
export const BROKERAGE_FEE_BPS = { managed: 1500, self_serve: 1000 } as const;

export const brokerageStatus = z
  .enum(brokerageStatuses)
  .describe(
    "`OPEN` (received) -> `RESEARCHING` (owner found and contacted) -> `NEGOTIATING` -> `COMPLETED` (deal closed; " +
      "emits `brokerage.case_completed`). `CLOSED_NO_DEAL` from any of the three open states. Moves are made by " +
      "staff; no step is skipped and a closed case never reopens.",
  );

const FEES =
  `Service fee on COMPLETED: ${BROKERAGE_FEE_BPS.managed / 100} % of the final price for \`managed\`, ` +
  `${BROKERAGE_FEE_BPS.self_serve / 100} % for \`self_serve\`; partner share = fee x the partner's brokerage share ` +
  "(default 2000 bps = 20 %) / 10000. Both are integer minor units rounded to the nearest cent, halves up, and the " +
  "share is paid out at the first settlement run after the calendar month (UTC) of completion as one payout of kind " +
  "`brokerage` per case (GET /payouts).";

const PROGRESS_URL =
  "Public, no-login page for the buyer: `{APP_URL}/brokerage/{token}`. The token is 32 bytes (base64url) derived as " +
  "HMAC-SHA256 of the case id under a server key, so it cannot be guessed from the case id; the database stores only " +
  "its SHA-256, and the same URL is returned by every read of the case. Share it with the buyer only; the page is " +
  "noindex and sends no referrer.";

// --- GET /brokerage/eligibility ----------------------------------------------------------

export const eligibilityReasonCodes = ["active_site", "open_case", "listed"] as const;

export const eligibilitySchema = z
  .object({
    domain: z.string(),
    eligible: z.boolean().describe("True when `reasons` is empty."),
    reasons: z
      .array(
        z.object({
          code: z
            .enum(eligibilityReasonCodes)
            .describe(
              "`active_site`: the domain answers HTTP (an active site). `open_case`: a case for it is already open in " +
                "this environment (any partner's). `listed`: it is in the inventory; buy it with POST /quotes and " +
                "POST /orders instead.",
            ),
          message: z.string(),
        }),
      )
      .describe("Why the domain cannot be brokered now; empty when eligible."),
  })
  .meta({ id: "BrokerageEligibility" });

export const getBrokerageEligibilityEndpoint = defineEndpoint({
  operationId: "getBrokerageEligibility",
  method: "GET",
  path: "/api/partner/v1/brokerage/eligibility",
  tag: "Brokerage",
  summary: "Can this domain be brokered?",
  description:
    "Checks, in the credential's environment: the inventory (a listed domain is simply bought), open cases " +
    "(`OPEN`, `RESEARCHING`, `NEGOTIATING`, any partner's; the other partner is never named) and whether the domain " +
    "runs an active site. The site check is a DNS lookup (A/AAAA, 1.5 s timeout) and HEAD requests over http and " +
    "https (2 s timeout); any HTTP answer below 500 is an active site, and a name that does not resolve has none. " +
    "Addresses that are not public are never contacted. Site results are cached 24 hours (failed lookups 1 hour).",
  scopes: ["broker"],
  rateClass: "reporting",
  query: z.object({ domain: domainNameInput }),
  response: eligibilitySchema,
  errors: ["validation_error"],
});

// --- the case resource ---------------------------------------------------------------------

const caseFields = {
  case_id: z.string().describe("Case id (`bc_...`), time-ordered."),
  domain: z.string(),
  tier: z.enum(brokerageTiers),
  status: brokerageStatus,
  buyer_email: z.string(),
  budget: moneyCents.describe("The buyer's budget in minor units, as sent."),
  currency: currencyCode,
  final_price_cents: moneyCents.nullable().describe("Agreed price; set when the case is COMPLETED."),
  service_fee_cents: moneyCents.nullable().describe(`Set when COMPLETED. ${FEES}`),
  partner_share_cents: moneyCents.nullable().describe("The partner's share of the service fee; set when COMPLETED."),
  progress_url: z.string().describe(PROGRESS_URL),
  created_at: timestamp,
  updated_at: timestamp,
  closed_at: timestamp.nullable().describe("When the case became COMPLETED or CLOSED_NO_DEAL."),
};

export const brokerageTimelineEntry = z.object({
  status: brokerageStatus,
  at: timestamp,
  note: z.string().nullable().describe("What happened, as written by staff or the service."),
});

export const brokerageCaseSummary = z.object(caseFields).meta({ id: "BrokerageCaseSummary" });

export const brokerageCaseSchema = z
  .object({ ...caseFields, timeline: z.array(brokerageTimelineEntry).describe("Every status the case has had, oldest first.") })
  .meta({ id: "BrokerageCase" });

// --- POST /brokerage -----------------------------------------------------------------------

export const createBrokerageCaseBody = z.strictObject({
  domain: domainNameInput,
  tier: z
    .enum(brokerageTiers)
    .describe("`managed`: the service negotiates end to end. `self_serve`: the service researches, the buyer negotiates."),
  buyer_email: z.email().max(254),
  budget: z.number().int().positive().max(Number.MAX_SAFE_INTEGER).describe("The buyer's budget in minor units, an integer > 0."),
  currency: currencyCode.default("USD").describe("Currency of `budget` and of the final price; default USD."),
});

export const createBrokerageCaseEndpoint = defineEndpoint({
  operationId: "createBrokerageCase",
  method: "POST",
  path: "/api/partner/v1/brokerage",
  tag: "Brokerage",
  summary: "Open a brokerage case for an unlisted domain",
  description:
    "Runs the eligibility check of GET /brokerage/eligibility and refuses an ineligible domain with 409 `conflict` " +
    "(the reasons are in the message). Otherwise creates the case in `OPEN` with its first timeline entry and an " +
    "audit row, in one transaction that also re-checks for an open case, so two concurrent requests for one domain " +
    "open one case. Not idempotent by key: a retry of a request that succeeded gets 409 `conflict` (the case is " +
    "open); find it with GET /brokerage. " +
    FEES,
  scopes: ["broker"],
  rateClass: "write",
  body: createBrokerageCaseBody,
  response: brokerageCaseSchema,
  successStatus: 201,
  errors: ["validation_error", "conflict"],
});

// --- GET /brokerage/{case_id} ---------------------------------------------------------------

export const getBrokerageCaseEndpoint = defineEndpoint({
  operationId: "getBrokerageCase",
  method: "GET",
  path: "/api/partner/v1/brokerage/{case_id}",
  tag: "Brokerage",
  summary: "One brokerage case with its timeline",
  description:
    "Status, timeline, outcome and the buyer's progress URL. A case of another partner or environment is 404 " +
    "`not_found`, exactly like one that does not exist.",
  scopes: ["broker"],
  rateClass: "reporting",
  params: z.object({ case_id: z.string().min(1).max(64).describe("The case's `case_id`.") }),
  response: brokerageCaseSchema,
  errors: ["not_found"],
});

// --- GET /brokerage --------------------------------------------------------------------------

export const listBrokerageCasesQuery = listQuery.extend({
  status: z
    .string()
    .optional()
    .transform((v) => (v ? [...new Set(v.split(",").map((s) => s.trim()))] : undefined))
    .pipe(z.array(z.enum(brokerageStatuses)).optional())
    .describe("One status or a comma-separated list, e.g. `COMPLETED,CLOSED_NO_DEAL`."),
  from: isoInstant.optional().describe("ISO 8601 date or date-time (UTC unless an offset is given); `created_at` >= from."),
  to: isoInstant.optional().describe("ISO 8601 date or date-time; `created_at` < to (exclusive). Must be after `from`."),
});

export const listBrokerageCasesEndpoint = defineEndpoint({
  operationId: "listBrokerageCases",
  method: "GET",
  path: "/api/partner/v1/brokerage",
  tag: "Brokerage",
  summary: "List the partner's brokerage cases and outcomes",
  description:
    "The partner's cases in the credential's environment, newest first (by `case_id`, which is time-ordered), with " +
    "outcome figures on completed ones. Keyset-paged: cases opened while a client pages never make a page skip or " +
    "repeat one. Filters combine with AND.",
  scopes: ["report"],
  rateClass: "reporting",
  query: listBrokerageCasesQuery,
  response: listEnvelope(brokerageCaseSummary),
  errors: ["validation_error"],
});

export const brokerageContracts = [
  getBrokerageEligibilityEndpoint,
  createBrokerageCaseEndpoint,
  getBrokerageCaseEndpoint,
  listBrokerageCasesEndpoint,
] as const;
