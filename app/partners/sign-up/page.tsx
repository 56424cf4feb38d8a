import type { Metadata } from "next";
import Link from "next/link";
import { redirect } from "next/navigation";
import { AuthFrame } from "@/components/shell/auth-frame";
import { signInPath } from "@/server/auth/redirects";
import { getSessionUser } from "@/server/auth/session";
import { PartnerSignUpForm } from "./sign-up-form";

// GET /partners/sign-up - a partner organisation with sandbox access, at once.

export const metadata: Metadata = { title: "Become a partner" };

export default async function PartnerSignUpPage() {
  if (await getSessionUser()) redirect("/dashboard");
  return (
    <AuthFrame
      wide
      title="Start selling domains"
      subtitle="Sandbox keys in a minute; production access when you are ready"
      footer={
        <>
          Already a partner?{" "}
          <Link href={signInPath("/dashboard")} className="rounded-sm font-medium text-brand hover:text-brand-hover">
            Sign in
          </Link>
        </>
      }
    >
      <PartnerSignUpForm />
    </AuthFrame>
  );
}
