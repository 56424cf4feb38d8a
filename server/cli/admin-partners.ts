import { z } from "zod";
import { addAccount, staffRoles } from "@/server/services/admin-users";
import { approveLive, createCredential, createPartner, revokeCredential } from "@/server/services/partners";
import { setAffiliate } from "@/server/services/referrals";
import { defineCommand } from "./admin-commands";
import { flag } from "./args";

// partner:*, credential:* and user:* of the operations CLI.

const password = () => flag.text("value").min(8, "must be at least 8 characters");

export const partnerCommands = {
  "partner:create": defineCommand({
    summary: "Create a partner and its dashboard login (MoR unless --non-mor)",
    usage: "--name N --email E [--password P] [--mor | --non-mor] [--affiliate] [--live-approved]",
    booleans: ["mor", "non-mor", "affiliate", "live-approved"],
    flags: z
      .strictObject({
        name: flag.text("name"),
        email: flag.email(),
        password: password().optional(),
        mor: flag.bool(),
        "non-mor": flag.bool(),
        affiliate: flag.bool(),
        "live-approved": flag.bool(),
      })
      .refine((f) => !(f.mor && f["non-mor"]), { path: ["non-mor"], message: "cannot be combined with --mor" }),
    async run(ctx, f) {
      const partner = await createPartner(
        await ctx.db(),
        {
          name: f.name,
          email: f.email,
          password: f.password,
          paymentModel: f["non-mor"] ? "non_mor" : "mor",
          isAffiliate: f.affiliate ?? false,
          liveApproved: f["live-approved"] ?? false,
        },
        ctx.actor,
      );
      return { partner_id: partner.partnerId, email: partner.email };
    },
  }),

  "partner:approve-live": defineCommand({
    summary: "Approve a partner's production access so live credentials can be created",
    usage: "--partner ID",
    flags: z.strictObject({ partner: flag.text("partner id") }),
    async run(ctx, f) {
      const result = await approveLive(await ctx.db(), { partnerId: f.partner }, ctx.actor);
      return { partner_id: result.partnerId, live_approved_at: result.liveApprovedAt.toISOString() };
    },
  }),

  "partner:set-affiliate": defineCommand({
    summary: "Enable the affiliate program (referral links and reports) for a partner, or --off to end it",
    usage: "--partner ID [--off]",
    booleans: ["off"],
    flags: z.strictObject({ partner: flag.text("partner id"), off: flag.bool() }),
    async run(ctx, f) {
      const result = await setAffiliate(await ctx.db(), { partnerId: f.partner, isAffiliate: !f.off }, ctx.actor);
      return { partner_id: result.partnerId, is_affiliate: result.isAffiliate };
    },
  }),

  "credential:create": defineCommand({
    summary: "Issue an API key pair; the secret is shown only in this output",
    usage: "--partner ID --env sandbox|live --scopes search,buy,... [--label L]",
    flags: z.strictObject({
      partner: flag.text("partner id"),
      env: flag.env(),
      scopes: flag.scopes(),
      label: flag.text("label").optional(),
    }),
    async run(ctx, f) {
      const credential = await createCredential(
        await ctx.db(),
        { partnerId: f.partner, environment: f.env, scopes: f.scopes, label: f.label },
        ctx.actor,
      );
      return { key_id: credential.keyId, secret: credential.secret, env: credential.environment, scopes: credential.scopes };
    },
  }),

  "credential:revoke": defineCommand({
    summary: "Revoke a credential at once",
    usage: "--key KEY_ID",
    flags: z.strictObject({ key: flag.text("key id") }),
    async run(ctx, f) {
      const result = await revokeCredential(await ctx.db(), { keyId: f.key }, ctx.actor);
      return { key_id: result.keyId, revoked_at: result.revokedAt?.toISOString() ?? null };
    },
  }),

  "user:create": defineCommand({
    summary: "Create a login: a marketplace account (buyer; signs in for OAuth), or staff with --role admin",
    usage: "--email E --password P [--name N] [--role customer|admin]",
    flags: z.strictObject({
      email: flag.email(),
      password: password(),
      name: flag.text("name").optional(),
      role: z.enum(staffRoles, { error: "must be customer or admin" }).default("customer"),
    }),
    async run(ctx, f) {
      // The console's "Add staff" calls the same service (audited as user.created).
      const user = await addAccount(await ctx.db(), { email: f.email, password: f.password, name: f.name, role: f.role }, ctx.actor);
      return { user_id: user.userId, email: user.email, role: user.role };
    },
  }),
};
