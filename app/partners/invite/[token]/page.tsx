import type { Metadata } from "next";
import Link from "next/link";
import { AuthFrame } from "@/components/shell/auth-frame";
import { Alert } from "@/components/ui";
import { getDb } from "@/db/client";
import { roleDescriptions, roleLabels } from "@/server/auth/partner-roles";
import { getSessionUser } from "@/server/auth/session";
import { getInvitation } from "@/server/services/team";
import { AcceptInvitationForm } from "./accept-form";

// GET /partners/invite/<token> - join a partner's team from the link an owner shared.

export const metadata: Metadata = { title: "Join your team", referrer: "no-referrer" };

const closed = {
  expired: "This invitation has expired. Ask the person who invited you for a new link.",
  used: "This invitation has already been used. Sign in with the account it created.",
  revoked: "This invitation was withdrawn. Ask an owner of the organisation for a new link.",
  unknown: "We don't know this invitation link. Check that you copied all of it.",
} as const;

export default async function InvitationPage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  const [invitation, user] = await Promise.all([getInvitation(getDb(), token), getSessionUser()]);
  if (invitation.state !== "open") {
    return (
      <AuthFrame title="Invitation unavailable" subtitle="Partner dashboard">
        <Alert tone="warning">{closed[invitation.state]}</Alert>
        <p className="mt-4 text-sm">
          <Link href="/sign-in" className="font-medium text-brand hover:text-brand-hover">
            Go to sign-in
          </Link>
        </p>
      </AuthFrame>
    );
  }
  return (
    <AuthFrame title={`Join ${invitation.partnerName}`} subtitle={`as ${roleLabels[invitation.role].toLowerCase()}: ${roleDescriptions[invitation.role]}`}>
      {user ? (
        <Alert tone="info" title={`You are signed in as ${user.email}`}>
          Sign out first to accept this invitation for {invitation.email}.
        </Alert>
      ) : (
        <AcceptInvitationForm token={token} email={invitation.email} />
      )}
    </AuthFrame>
  );
}
