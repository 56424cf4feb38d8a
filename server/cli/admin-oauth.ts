import { z } from "zod";
import { revokeOAuthAccess } from "@/server/oauth/revoke";
import { defineCommand } from "./admin-commands";
import { flag } from "./args";

// oauth:* of the operations CLI.

export const oauthCommands = {
  "oauth:revoke": defineCommand({
    summary: "Revoke OAuth access at once: every token of a user (optionally only one client's), or a client and all its tokens",
    usage: "--user EMAIL [--client CLIENT_ID] | --client CLIENT_ID  [--reason TEXT]",
    flags: z
      .strictObject({ user: flag.email().optional(), client: flag.text("client id").optional(), reason: flag.text("reason").optional() })
      .refine((f) => f.user !== undefined || f.client !== undefined, {
        path: ["user"],
        message: "give --user, --client, or both (a user's grants to that client)",
      }),
    async run(ctx, f) {
      const db = await ctx.db();
      const options = { reason: f.reason };
      return f.user !== undefined
        ? revokeOAuthAccess(db, { userEmail: f.user, clientId: f.client }, ctx.actor, options)
        : revokeOAuthAccess(db, { clientId: f.client! }, ctx.actor, options);
    },
  }),
};
