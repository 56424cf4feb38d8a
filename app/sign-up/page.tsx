import type { Metadata } from "next";
import Link from "next/link";
import { redirect } from "next/navigation";
import { AuthFrame } from "@/components/shell/auth-frame";
import { safeCallbackPath, signInPath } from "@/server/auth/redirects";
import { getSessionUser } from "@/server/auth/session";
import { SignUpForm } from "./sign-up-form";

// GET /sign-up - create a marketplace account (to connect OAuth applications).

export const metadata: Metadata = { title: "Create an account" };

interface SignUpPageProps {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}

export default async function SignUpPage({ searchParams }: SignUpPageProps) {
  const params = await searchParams;
  const raw = Array.isArray(params.callbackUrl) ? params.callbackUrl[0] : params.callbackUrl;
  const callbackPath = safeCallbackPath(raw, "/");
  if (await getSessionUser()) redirect(callbackPath);
  return (
    <AuthFrame
      title="Create your account"
      subtitle="Search domains with real marketplace prices"
      footer={
        <>
          Already have an account?{" "}
          <Link
            href={signInPath(raw ? callbackPath : undefined)}
            className="rounded-sm font-medium text-brand hover:text-brand-hover"
          >
            Sign in
          </Link>
        </>
      }
    >
      <SignUpForm callbackUrl={callbackPath} />
    </AuthFrame>
  );
}
