import { z } from "zod";
import { normaliseCidrList } from "@/server/http/cidr";
import { scopes } from "@/server/http/contract";
import { listKeys, rollGraces, rollKey, setKeyAllowList, type RollGrace } from "@/server/services/keys";
import { createCredential, revokeCredential } from "@/server/services/partners";
import { createTRPCRouter, integrationMutation, integrationProcedure } from "../init";

// API keys of the selected environment.

const keyId = z.string().regex(/^pk_(sandbox|live)_[A-Za-z0-9]{24}$/, "not a key id");
const cidrList = z.string().max(4000).default("").transform((text) => normaliseCidrList(text));

export const createKeyInput = z.object({
  name: z.string().trim().min(1, "Name the key (where it runs)").max(80),
  scopes: z.array(z.enum(scopes)).min(1, "Choose at least one scope"),
  allowedCidrs: cidrList,
});

export const keysRouter = createTRPCRouter({
  /** keys.list - the environment's keys with last use and 24 h request counts */
  list: integrationProcedure
    .input(z.object({ includeRevoked: z.boolean().default(false) }).default({ includeRevoked: false }))
    .query(({ ctx, input }) => listKeys(ctx.db, { ...ctx.owner, includeRevoked: input.includeRevoked })),
  /** keys.create - the secret is in this answer only */
  create: integrationMutation.input(createKeyInput).mutation(async ({ ctx, input }) => {
    const key = await createCredential(ctx.db, { ...ctx.owner, label: input.name, scopes: input.scopes, allowedCidrs: input.allowedCidrs }, ctx.actor);
    return { keyId: key.keyId, secret: key.secret, environment: key.environment, scopes: key.scopes };
  }),
  /** keys.roll - a new secret; the old one verifies until the grace ends */
  roll: integrationMutation
    .input(z.object({ keyId, grace: z.enum(Object.keys(rollGraces) as [RollGrace, ...RollGrace[]]) }))
    .mutation(({ ctx, input }) => rollKey(ctx.db, { ...ctx.owner, ...input }, ctx.actor)),
  /** keys.setAllowList - replace the IP allow-list (empty: any address) */
  setAllowList: integrationMutation
    .input(z.object({ keyId, allowedCidrs: cidrList }))
    .mutation(({ ctx, input }) => setKeyAllowList(ctx.db, { ...ctx.owner, ...input }, ctx.actor)),
  /** keys.revoke - immediate */
  revoke: integrationMutation.input(z.object({ keyId })).mutation(async ({ ctx, input }) => {
    const result = await revokeCredential(ctx.db, { keyId: input.keyId, ...ctx.owner }, ctx.actor);
    return { keyId: result.keyId, revokedAt: result.revokedAt?.toISOString() ?? null };
  }),
});
