import Link from "next/link";
import { buttonClasses } from "@/components/ui/button";
import { API_REFERENCE_URL } from "./brand";
import { Logo } from "./logo";

/** Header of the public pages (home, sign-in, not found). */
export function SiteHeader({ signedIn = false }: { signedIn?: boolean }) {
  return (
    <header className="border-b border-line bg-surface/80 backdrop-blur supports-[backdrop-filter]:bg-surface/70">
      <div className="mx-auto flex h-16 max-w-6xl items-center justify-between gap-4 px-4 sm:px-6">
        <Link href="/" className="flex rounded-md" aria-label="Domain Marketplace home">
          <Logo compact />
        </Link>
        <nav aria-label="Main" className="flex items-center gap-1 sm:gap-2">
          <Link href="/domains" className={buttonClasses({ variant: "ghost", size: "sm" })}>
            Buy a domain
          </Link>
          <a href={API_REFERENCE_URL} className={buttonClasses({ variant: "ghost", size: "sm", className: "max-sm:hidden" })}>
            API reference
          </a>
          {signedIn ? (
            <Link href="/dashboard" className={buttonClasses({ size: "sm" })}>
              Dashboard
            </Link>
          ) : (
            <>
              <Link href="/partners/sign-up" className={buttonClasses({ variant: "ghost", size: "sm", className: "max-sm:hidden" })}>
                Become a partner
              </Link>
              <Link href="/sign-in" className={buttonClasses({ size: "sm" })}>
                Sign in
              </Link>
            </>
          )}
        </nav>
      </div>
    </header>
  );
}
