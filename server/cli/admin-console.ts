import { z } from "zod";
import { normaliseCidrList } from "@/server/http/cidr";
import { decideProductionAccess, listAccessRequests } from "@/server/services/account";
import { getKeyOwnerOrThrow, listKeys, rollGraces, rollKey, setKeyAllowList, type RollGrace } from "@/server/services/keys";
import { listRequests } from "@/server/services/request-log";
import { enableEndpoint, resendFailed, sendTestEvent } from "@/server/services/webhook-console";
import { eventTypes } from "@/server/webhooks/catalog";
import { defineCommand } from "./admin-commands";
import { flag } from "./args";

// The integration console's actions for staff: the same service functions the
// partner dashboard's tRPC procedures call, with the partner named explicitly.

const owner = { partner: flag.text("partner id"), env: flag.env() };
const isoDate = (name: string) =>
  flag.text(name).refine((v) => !Number.isNaN(Date.parse(v)), "must be an ISO 8601 date-time").transform((v) => new Date(v));

export const consoleCommands = {
  "credential:list": defineCommand({
    summary: "A partner's keys in one environment, with last use and 24 h request counts",
    usage: "--partner ID --env sandbox|live [--all]",
    booleans: ["all"],
    flags: z.strictObject({ ...owner, all: flag.bool() }),
    async run(ctx, f) {
      return listKeys(await ctx.db(), { partnerId: f.partner, environment: f.env, includeRevoked: f.all ?? false });
    },
  }),

  "credential:roll": defineCommand({
    summary: "A new secret for a key; with --grace the old one keeps verifying until the grace ends",
    usage: `--key KEY_ID [--grace ${Object.keys(rollGraces).join("|")}]`,
    flags: z.strictObject({
      key: flag.text("key id"),
      grace: z.enum(Object.keys(rollGraces) as [RollGrace, ...RollGrace[]], { error: `must be one of ${Object.keys(rollGraces).join(", ")}` }).default("none"),
    }),
    async run(ctx, f) {
      const db = await ctx.db();
      const keyOwner = await getKeyOwnerOrThrow(db, f.key);
      const rolled = await rollKey(db, { ...keyOwner, keyId: f.key, grace: f.grace }, ctx.actor);
      return { key_id: rolled.keyId, secret: rolled.secret, previous_secret_expires_at: rolled.previousSecretExpiresAt };
    },
  }),

  "credential:allow-list": defineCommand({
    summary: "Replace a key's IP allow-list (comma-separated CIDR blocks; empty allows any address)",
    usage: "--key KEY_ID --cidrs 203.0.113.0/24,2001:db8::/32",
    flags: z.strictObject({ key: flag.text("key id"), cidrs: z.string().default("") }),
    async run(ctx, f) {
      const db = await ctx.db();
      const keyOwner = await getKeyOwnerOrThrow(db, f.key);
      return setKeyAllowList(db, { ...keyOwner, keyId: f.key, allowedCidrs: normaliseCidrList(f.cidrs) }, ctx.actor);
    },
  }),

  "partner:access-requests": defineCommand({
    summary: "Production access requests, newest first",
    usage: "[--status pending|approved|declined] [--limit N]",
    flags: z.strictObject({
      status: z.enum(["pending", "approved", "declined"]).optional(),
      limit: flag.text("limit").regex(/^\d+$/, "must be a number").transform(Number).default(50),
    }),
    async run(ctx, f) {
      return listAccessRequests(await ctx.db(), { status: f.status, limit: Math.min(f.limit, 500) });
    },
  }),

  "partner:access-decide": defineCommand({
    summary: "Approve (grants live access) or decline a pending production access request",
    usage: "--request ID (--approve | --decline) [--note TEXT]",
    booleans: ["approve", "decline"],
    flags: z
      .strictObject({ request: flag.text("request id"), approve: flag.bool(), decline: flag.bool(), note: flag.text("note").optional() })
      .refine((f) => Boolean(f.approve) !== Boolean(f.decline), { path: ["approve"], message: "give exactly one of --approve or --decline" }),
    async run(ctx, f) {
      return decideProductionAccess(await ctx.db(), { requestId: f.request, decision: f.approve ? "approved" : "declined", note: f.note }, ctx.actor);
    },
  }),

  "webhook:test": defineCommand({
    summary: "Send a test event of a catalog type to a partner's endpoint",
    usage: `--partner ID --env sandbox|live --type ${eventTypes[0]}`,
    flags: z.strictObject({ ...owner, type: z.enum(eventTypes, { error: `must be one of ${eventTypes.join(", ")}` }) }),
    async run(ctx, f) {
      return sendTestEvent(await ctx.db(), { partnerId: f.partner, environment: f.env, type: f.type }, ctx.actor);
    },
  }),

  "webhook:enable": defineCommand({
    summary: "Re-enable a disabled endpoint; --resend sends again what failed while it was off",
    usage: "--partner ID --env sandbox|live [--resend]",
    booleans: ["resend"],
    flags: z.strictObject({ ...owner, resend: flag.bool() }),
    async run(ctx, f) {
      return enableEndpoint(await ctx.db(), { partnerId: f.partner, environment: f.env, resend: f.resend ?? false }, ctx.actor);
    },
  }),

  "webhook:resend-failed": defineCommand({
    summary: "Resend every failed delivery of a time window (idempotent)",
    usage: "--partner ID --env sandbox|live --from ISO --to ISO",
    flags: z.strictObject({ ...owner, from: isoDate("from"), to: isoDate("to") }),
    async run(ctx, f) {
      return resendFailed(await ctx.db(), { partnerId: f.partner, environment: f.env, from: f.from, to: f.to }, ctx.actor);
    },
  }),

  "requests:list": defineCommand({
    summary: "A partner's request log, newest first",
    usage: "--partner ID --env sandbox|live [--status 4xx] [--key KEY_ID] [--limit N]",
    flags: z.strictObject({
      ...owner,
      status: flag.text("status").optional(),
      key: flag.text("key id").optional(),
      limit: flag.text("limit").regex(/^\d+$/, "must be a number").transform(Number).default(50),
    }),
    async run(ctx, f) {
      const page = await listRequests(await ctx.db(), { partnerId: f.partner, environment: f.env, status: f.status, keyId: f.key, limit: Math.min(f.limit, 500) });
      return page.requests;
    },
  }),
};
