import { clock } from "@/server/clock";
import { API_REFERENCE_URL, PRODUCT_NAME } from "./brand";

export function SiteFooter() {
  return (
    <footer className="border-t border-line bg-surface">
      <div className="mx-auto flex max-w-6xl flex-col gap-2 px-4 py-6 text-sm text-muted sm:flex-row sm:items-center sm:justify-between sm:px-6">
        <p>
          © {clock.now().getUTCFullYear()} {PRODUCT_NAME}
        </p>
        <nav aria-label="Footer" className="flex gap-4">
          <a href={API_REFERENCE_URL} className="rounded-sm hover:text-ink">
            API reference
          </a>
          <a href="/docs/public" className="rounded-sm hover:text-ink">
            Public search &amp; MCP
          </a>
          {/* A JSON API route, not a page: a plain link, no client-side navigation. */}
          {/* eslint-disable-next-line @next/next/no-html-link-for-pages */}
          <a href="/api/health" className="rounded-sm hover:text-ink">
            Status
          </a>
        </nav>
      </div>
    </footer>
  );
}
