import type { Metadata } from "next";
import Link from "next/link";
import { redirect } from "next/navigation";
import { Logo } from "@/components/shell/logo";
import { Alert, Card, CardContent } from "@/components/ui";
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
    <main id="main" className="flex flex-1 flex-col items-center justify-center px-4 py-12">
      <Link href="/" className="mb-8 rounded-md" aria-label="Domain Marketplace home">
        <Logo />
      </Link>
      <Card className="w-full max-w-sm">
        <CardContent className="space-y-6 sm:px-8 sm:py-8">
          <div className="space-y-1 text-center">
            <h1 className="text-xl font-semibold tracking-tight text-ink">Sign in to your account</h1>
            <p className="text-sm text-muted">Partner dashboard and admin console</p>
          </div>
          {first("signedOut") ? <Alert tone="success">You have been signed out.</Alert> : null}
          <SignInForm callbackUrl={callbackPath} initialError={initialError} />
        </CardContent>
      </Card>
      <p className="mt-6 text-center text-sm text-muted">
        Integrating?{" "}
        <a href="/api/partner/v1/openapi.json" className="rounded-sm font-medium text-brand hover:text-brand-hover">
          Read the API reference
        </a>
      </p>
    </main>
  );
}
