import Link from "next/link";
import { SiteFooter } from "@/components/shell/site-footer";
import { SiteHeader } from "@/components/shell/site-header";
import { buttonClasses } from "@/components/ui";

export default function NotFound() {
  return (
    <>
      <SiteHeader />
      <main id="main" className="flex flex-1 flex-col items-center justify-center px-4 py-24 text-center">
        <p className="text-sm font-semibold text-brand">404</p>
        <h1 className="mt-2 text-3xl font-semibold tracking-tight text-ink">Page not found</h1>
        <p className="mt-3 max-w-md text-muted">The page you are looking for does not exist or has moved.</p>
        <div className="mt-8 flex gap-3">
          <Link href="/" className={buttonClasses()}>
            Go home
          </Link>
          <Link href="/dashboard" className={buttonClasses({ variant: "secondary" })}>
            Dashboard
          </Link>
        </div>
      </main>
      <SiteFooter />
    </>
  );
}
