import type { Metadata } from "next";
import Link from "next/link";
import { AuthFrame } from "@/components/shell/auth-frame";
import { Alert, Button, buttonClasses } from "@/components/ui";
import { getDb } from "@/db/client";
import { signInPath } from "@/server/auth/redirects";
import { getSessionUser } from "@/server/auth/session";
import { AUTHORIZE_PARAMS, validateAuthorization, type AuthorizeParams } from "@/server/oauth/authorize";
import { consentAction } from "./actions";

// GET /oauth/authorize - OAuth 2.1 authorization endpoint: sign in, then consent.

export const metadata: Metadata = { title: "Authorize application", referrer: "no-referrer" };
export const dynamic = "force-dynamic";

const scopeText: Record<string, string> = {
  "pricing:read": "See real marketplace prices when it searches for domains on your behalf",
};

interface AuthorizePageProps {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}

export default async function AuthorizePage({ searchParams }: AuthorizePageProps) {
  const raw = await searchParams;
  const params: AuthorizeParams = {};
  const query = new URLSearchParams();
  for (const key of AUTHORIZE_PARAMS) {
    const value = raw[key];
    if (value === undefined) continue;
    params[key] = value;
    for (const v of Array.isArray(value) ? value : [value]) query.append(key, v);
  }
  const outcome = await validateAuthorization(getDb(), params);
  if (outcome.kind === "redirect") {
    // Shown, not redirected: the user has neither signed in nor consented yet.
    return (
      <AuthFrame wide>
        <div className="space-y-2 text-center">
          <h1 className="text-xl font-semibold tracking-tight text-ink">This sign-in request cannot be completed</h1>
          <p className="text-sm text-muted">{outcome.description}</p>
        </div>
        <Alert tone="warning">The application that sent you here made an invalid request. Nothing was shared.</Alert>
        <a href={outcome.url} rel="noreferrer" className={buttonClasses({ variant: "secondary", size: "lg", className: "w-full" })} data-testid="oauth-error-return">
          Return to {outcome.host}
        </a>
      </AuthFrame>
    );
  }
  if (outcome.kind === "error_page") {
    return (
      <AuthFrame wide>
        <div className="space-y-2 text-center">
          <h1 className="text-xl font-semibold tracking-tight text-ink">{outcome.title}</h1>
          <p className="text-sm text-muted">{outcome.message}</p>
        </div>
        <Alert tone="warning">
          The application that sent you here made an invalid request. You can close this window; nothing was shared.
        </Alert>
      </AuthFrame>
    );
  }

  const request = outcome.request;
  const appName = request.clientName || "An unnamed application";
  const returnTo = `/oauth/authorize?${query}`;
  const user = await getSessionUser();
  if (!user) {
    return (
      <AuthFrame wide>
        <div className="space-y-2 text-center">
          <h1 className="text-xl font-semibold tracking-tight text-ink">Sign in to continue</h1>
          <p className="text-sm text-muted">
            <span className="font-medium text-ink">{appName}</span> wants to connect to your Domain Marketplace
            account.
          </p>
        </div>
        <div className="space-y-3">
          <Link href={signInPath(returnTo)} className={buttonClasses({ size: "lg", className: "w-full" })}>
            Sign in
          </Link>
          <Link
            href={`/sign-up?callbackUrl=${encodeURIComponent(returnTo)}`}
            className={buttonClasses({ variant: "secondary", size: "lg", className: "w-full" })}
          >
            Create an account
          </Link>
        </div>
      </AuthFrame>
    );
  }

  const scopes = request.scope.split(" ");
  return (
    <AuthFrame wide>
      <div className="space-y-2 text-center">
        <h1 className="text-xl font-semibold tracking-tight text-ink">
          Allow <span className="break-words">{appName}</span> to access your account?
        </h1>
        <p className="text-sm text-muted">
          Signed in as <span className="font-medium text-ink">{user.email}</span>
        </p>
      </div>
      <div className="space-y-3 rounded-lg border border-line bg-subtle/60 px-4 py-3 text-sm">
        <p className="font-medium text-ink">This application will be able to:</p>
        <ul className="list-disc space-y-1 pl-5 text-muted">
          {scopes.map((scope) => (
            <li key={scope}>{scopeText[scope] ?? scope}</li>
          ))}
        </ul>
        <p className="text-muted">
          It cannot buy domains, change your account or see your password.
        </p>
      </div>
      <div className="space-y-1.5 text-sm text-muted">
        <p>After you choose, you will be sent back to</p>
        <p
          className="rounded-md border border-line bg-subtle/60 px-3 py-2 font-mono text-ink break-all"
          data-testid="redirect-host"
        >
          {request.redirectHost}
        </p>
        <p>Only allow applications you trust.</p>
      </div>
      <form action={consentAction} className="flex flex-col-reverse gap-3 sm:flex-row">
        {AUTHORIZE_PARAMS.map((key) =>
          (query.getAll(key) as string[]).map((value, i) => (
            <input key={`${key}-${i}`} type="hidden" name={key} value={value} />
          )),
        )}
        <Button type="submit" name="decision" value="deny" variant="secondary" size="lg" className="flex-1">
          Deny
        </Button>
        <Button type="submit" name="decision" value="allow" size="lg" className="flex-1">
          Allow
        </Button>
      </form>
    </AuthFrame>
  );
}
