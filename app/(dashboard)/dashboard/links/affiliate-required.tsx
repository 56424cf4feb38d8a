import { API_REFERENCE_URL } from "@/components/shell/brand";
import { buttonClasses, Card, CardContent, CardDescription, CardHeader, CardTitle, Code, PageHeader } from "@/components/ui";

/**
 * What a partner without an affiliate account sees instead of the link form:
 * the same rule the API applies (requireAffiliate: 403 `forbidden` on /links and
 * the referral reports), said in words, with what to do about it.
 */
export function AffiliateRequired() {
  return (
    <div className="space-y-6" data-testid="affiliate-required">
      <PageHeader title="Referral links" description="Tracked links that earn commission on marketplace sales they bring." />
      <Card>
        <CardHeader>
          <CardTitle>Referral links need an affiliate account</CardTitle>
          <CardDescription>
            Your organisation is not in the affiliate program, so it cannot create referral links or see referral clicks,
            sales and commissions. The API applies the same rule: <Code>POST /links</Code> and the referral reports answer{" "}
            <Code>403 forbidden</Code> for your keys, whatever their scopes.
          </CardDescription>
        </CardHeader>
        <CardContent className="space-y-3 text-sm text-muted">
          <p>
            Affiliates share links to the marketplace, a listed domain or the brokerage page. A buyer who follows one and
            buys within 30 days earns them a commission on the sale, paid out after the order settles.
          </p>
          <p>
            To join, ask your account manager or the service&apos;s staff to enable the affiliate program for your
            organisation. Nothing else changes: your keys, orders and payouts stay as they are.
          </p>
          <a href={API_REFERENCE_URL} className={buttonClasses({ variant: "secondary", className: "mt-2" })}>
            Read about referrals in the API reference
          </a>
        </CardContent>
      </Card>
    </div>
  );
}
