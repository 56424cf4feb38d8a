import Link from "next/link";
import { Card, CardContent } from "@/components/ui";
import { Logo } from "./logo";

/**
 * The centred card of the account pages (sign-in, sign-up, OAuth consent):
 * the logo home, an optional heading, the card, and an optional line below it.
 */
export function AuthFrame({
  title,
  subtitle,
  footer,
  wide = false,
  children,
}: {
  title?: string;
  subtitle?: string;
  footer?: React.ReactNode;
  wide?: boolean;
  children: React.ReactNode;
}) {
  return (
    <main id="main" className="flex flex-1 flex-col items-center justify-center px-4 py-12">
      <Link href="/" className="mb-8 rounded-md" aria-label="Domain Marketplace home">
        <Logo />
      </Link>
      <Card className={wide ? "w-full max-w-md" : "w-full max-w-sm"}>
        <CardContent className="space-y-6 sm:px-8 sm:py-8">
          {title ? (
            <div className="space-y-1 text-center">
              <h1 className="text-xl font-semibold tracking-tight text-ink">{title}</h1>
              {subtitle ? <p className="text-sm text-muted">{subtitle}</p> : null}
            </div>
          ) : null}
          {children}
        </CardContent>
      </Card>
      {footer ? <p className="mt-6 text-center text-sm text-muted">{footer}</p> : null}
    </main>
  );
}
