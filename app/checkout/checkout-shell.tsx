import type { ReactNode } from "react";
import { Logo } from "@/components/shell/logo";
import { SiteFooter } from "@/components/shell/site-footer";
import { buttonClasses, Card } from "@/components/ui";

/** The hosted checkout's frame: the brand, no site navigation (the buyer came from a partner). */
export function CheckoutShell({ children }: { children: ReactNode }) {
  return (
    <>
      <header className="border-b border-line bg-surface">
        <div className="mx-auto flex h-16 max-w-6xl items-center justify-between gap-4 px-4 sm:px-6">
          <Logo suffix="Checkout" compact />
          <p className="flex items-center gap-1.5 text-xs font-medium whitespace-nowrap text-muted">
            <svg viewBox="0 0 20 20" fill="currentColor" aria-hidden="true" className="size-4">
              <path fillRule="evenodd" d="M10 1a4.5 4.5 0 0 0-4.5 4.5V9H5a2 2 0 0 0-2 2v6a2 2 0 0 0 2 2h10a2 2 0 0 0 2-2v-6a2 2 0 0 0-2-2h-.5V5.5A4.5 4.5 0 0 0 10 1Zm3 8V5.5a3 3 0 1 0-6 0V9h6Z" clipRule="evenodd" />
            </svg>
            Secure checkout
          </p>
        </div>
      </header>
      <main id="main" className="flex-1">
        <div className="mx-auto max-w-6xl px-4 py-10 sm:px-6 sm:py-14">{children}</div>
      </main>
      <SiteFooter />
    </>
  );
}

export interface CheckoutMessageProps {
  tone: "danger" | "warning" | "success";
  eyebrow: string;
  title: string;
  children: ReactNode;
  action?: { href: string; label: string };
  testId: string;
}

const eyebrowTones = { danger: "text-danger-ink", warning: "text-warning-ink", success: "text-success-ink" };

/** One centred card for every state that is not the payment form. */
export function CheckoutMessage({ tone, eyebrow, title, children, action, testId }: CheckoutMessageProps) {
  return (
    <Card className="mx-auto max-w-lg p-8 text-center" data-testid={testId}>
      <p className={`text-sm font-semibold ${eyebrowTones[tone]}`}>{eyebrow}</p>
      <h1 className="mt-2 text-2xl font-semibold tracking-tight text-balance text-ink">{title}</h1>
      <div className="mt-3 space-y-2 text-sm text-muted">{children}</div>
      {action ? (
        <div className="mt-6">
          <a href={action.href} className={buttonClasses({ variant: "secondary" })}>
            {action.label}
          </a>
        </div>
      ) : null}
    </Card>
  );
}
