import type { Metadata } from "next";
import Link from "next/link";
import { redirect } from "next/navigation";
import { Logo } from "@/components/shell/logo";
import { Card, CardContent } from "@/components/ui";
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
    <main id="main" className="flex flex-1 flex-col items-center justify-center px-4 py-12">
      <Link href="/" className="mb-8 rounded-md" aria-label="Domain Marketplace home">
        <Logo />
      </Link>
      <Card className="w-full max-w-sm">
        <CardContent className="space-y-6 sm:px-8 sm:py-8">
          <div className="space-y-1 text-center">
            <h1 className="text-xl font-semibold tracking-tight text-ink">Create your account</h1>
            <p className="text-sm text-muted">Search domains with real marketplace prices</p>
          </div>
          <SignUpForm callbackUrl={callbackPath} />
        </CardContent>
      </Card>
      <p className="mt-6 text-center text-sm text-muted">
        Already have an account?{" "}
        <Link
          href={signInPath(raw ? callbackPath : undefined)}
          className="rounded-sm font-medium text-brand hover:text-brand-hover"
        >
          Sign in
        </Link>
      </p>
    </main>
  );
}
