// What each role in a partner's team may do. One table, read by the tRPC
// procedures (server/trpc/init.ts), the dashboard's navigation and the pages
// that hide buttons a role cannot use, so the three never disagree.
//
//                      owner  developer  finance  viewer
//   read money           x        x         x        x     orders, finance, links, brokerage
//   change money         x        x         x              refunds, checkout links, referral links, cases
//   read integration     x        x                  x     keys, webhooks, events, request log
//   change integration   x        x                        keys, webhooks, simulators
//   manage team, audit   x                                 invitations, roles, the audit log

export const partnerRoles = ["owner", "developer", "finance", "viewer"] as const;
export type PartnerRole = (typeof partnerRoles)[number];

export type PartnerPermission = "readMoney" | "changeMoney" | "readIntegration" | "changeIntegration" | "manageTeam";

const grants: Record<PartnerRole, readonly PartnerPermission[]> = {
  owner: ["readMoney", "changeMoney", "readIntegration", "changeIntegration", "manageTeam"],
  developer: ["readMoney", "changeMoney", "readIntegration", "changeIntegration"],
  finance: ["readMoney", "changeMoney"],
  viewer: ["readMoney", "readIntegration"],
};

export function can(role: PartnerRole | null | undefined, permission: PartnerPermission): boolean {
  return role ? grants[role].includes(permission) : false;
}

export const roleLabels: Record<PartnerRole, string> = { owner: "Owner", developer: "Developer", finance: "Finance", viewer: "Viewer" };

export const roleDescriptions: Record<PartnerRole, string> = {
  owner: "Everything, including the team, roles and the audit log.",
  developer: "API keys, webhooks, events and the request log; orders and money.",
  finance: "Orders, refunds, settlements, payouts and links; no API keys or webhooks.",
  viewer: "Reads everything but secrets and the team; changes nothing.",
};

/** Why a role was refused, in one sentence the dashboard can show. */
export function refusal(permission: PartnerPermission): string {
  switch (permission) {
    case "manageTeam":
      return "Only owners manage the team and read the audit log.";
    case "readIntegration":
      return "The finance role does not see API keys, webhooks or the request log; ask an owner.";
    case "changeIntegration":
      return "Only owners and developers change keys, webhooks and the sandbox; ask an owner.";
    case "changeMoney":
      return "Viewers can look but not change anything; ask an owner for another role.";
    case "readMoney":
      return "Your role cannot see this.";
  }
}
