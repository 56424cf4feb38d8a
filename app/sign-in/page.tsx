import Link from "next/link";
import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { AuthFrame } from "@/components/shell/auth-frame";
import { Alert } from "@/components/ui";
import { safeCallbackPath } from "@/server/auth/redirects";
import { getSessionUser } from "@/server/auth/session";
import { SignInForm } from "./sign-in-form";

export const metadata: Metadata = { title: "Sign in" };

// Errors next-auth puts in ?error= when its own endpoints redirect here.
const nextAuthErrors: Record<string, string> = {
  CredentialsSignin: "Incorrect email or password.",
  SessionRequired: "Sign in to continue.",
};

interface SignInPageProps {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}

export default async function SignInPage({ searchParams }: SignInPageProps) {
  const params = await searchParams;
  const first = (key: string) => {
    const value = params[key];
    return Array.isArray(value) ? value[0] : value;
  };
  const callbackPath = safeCallbackPath(first("callbackUrl"));
  if (await getSessionUser()) redirect(callbackPath);

  const errorCode = first("error");
  const initialError = errorCode ? (nextAuthErrors[errorCode] ?? "Sign-in failed. Please try again.") : undefined;

  return (
    <AuthFrame
      title="Sign in to your account"
      subtitle="Partner dashboard and admin console"
      footer={
        <>
          New partner?{" "}
          <Link href="/partners/sign-up" className="rounded-sm font-medium text-brand hover:text-brand-hover">
            Create a sandbox account
          </Link>{" "}
          or{" "}
          <a href="/api/partner/v1/openapi.json" className="rounded-sm font-medium text-brand hover:text-brand-hover">
            read the API reference
          </a>
        </>
      }
    >
      {first("signedOut") ? <Alert tone="success">You have been signed out.</Alert> : null}
      <SignInForm callbackUrl={callbackPath} initialError={initialError} />
    </AuthFrame>
  );
}
