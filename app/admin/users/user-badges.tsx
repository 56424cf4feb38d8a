import { Badge } from "@/components/ui";
import { roleLabels, type PartnerRole } from "@/server/auth/partner-roles";

// A user's role and state as the list and the user's page show them.

const roleNames = { admin: "Staff", partner: "Partner", customer: "Customer" } as const;

export function UserBadges({ role, partnerRole, disabledAt }: { role: keyof typeof roleNames; partnerRole: PartnerRole | null; disabledAt: string | null }) {
  return (
    <span className="flex flex-wrap gap-1">
      <Badge tone={role === "admin" ? "brand" : "neutral"} data-testid="user-role">
        {roleNames[role]}
        {partnerRole ? ` · ${roleLabels[partnerRole]}` : ""}
      </Badge>
      {disabledAt ? (
        <Badge tone="danger" data-testid="user-disabled">
          Disabled
        </Badge>
      ) : null}
    </span>
  );
}
