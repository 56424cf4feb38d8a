import { z } from "zod";
import { revokeOAuthAccess } from "@/server/oauth/revoke";
import { defineCommand } from "./admin-commands";
import { flag } from "./args";

// oauth:* of the operations CLI.

export const oauthCommands = {
  "oauth:revoke": defineCommand({
    summary: "Revoke OAuth access at once: every token of a user, or a client and all its tokens",
    usage: "--user EMAIL | --client CLIENT_ID",
    flags: z
      .strictObject({ user: flag.email().optional(), client: flag.text("client id").optional() })
      .refine((f) => (f.user === undefined) !== (f.client === undefined), {
        path: ["user"],
        message: "give exactly one of --user or --client",
      }),
    async run(ctx, f) {
      const db = await ctx.db();
      return f.user !== undefined
        ? revokeOAuthAccess(db, { userEmail: f.user }, ctx.actor)
        : revokeOAuthAccess(db, { clientId: f.client! }, ctx.actor);
    },
  }),
};
