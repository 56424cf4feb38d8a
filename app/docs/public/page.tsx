import type { Metadata } from "next";
import { connection } from "next/server";
import type { ReactNode } from "react";
import { SiteFooter } from "@/components/shell/site-footer";
import { SiteHeader } from "@/components/shell/site-header";
import { Badge, Card, CardContent, CardDescription, CardHeader, CardTitle, Code, CodeBlock, PageHeader } from "@/components/ui";
import { getEnv } from "@/server/env";
import { resourceIdentifiers, resourceMetadataUrl } from "@/server/oauth/metadata";
import { PUBLIC_SEARCH_MAX_RESULTS } from "@/server/public/contract";
import { ANONYMOUS_LIMIT_PER_MIN, TOKEN_LIMIT_PER_MIN } from "@/server/public/rate-limit";

// Developer page of the public interface: search endpoint, MCP server, OAuth app.
// Rendered per request so the URLs shown are the running service's own.

export const metadata: Metadata = { title: "Public search, MCP and OAuth" };

function Section({ id, title, description, children }: { id: string; title: string; description: ReactNode; children: ReactNode }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle id={id}>{title}</CardTitle>
        <CardDescription>{description}</CardDescription>
      </CardHeader>
      <CardContent className="space-y-4 text-sm leading-relaxed text-ink">{children}</CardContent>
    </Card>
  );
}

export default async function PublicDocsPage() {
  await connection();
  const { APP_URL } = getEnv();
  const resources = resourceIdentifiers();
  const mcpConfig = JSON.stringify({ mcpServers: { "domain-marketplace": { url: resources.mcp } } }, null, 2);
  return (
    <>
      <SiteHeader />
      <main id="main" className="mx-auto w-full max-w-4xl flex-1 space-y-6 px-4 py-12 sm:px-6">
        <PageHeader
          title="Public search, MCP and OAuth"
          description="Search the marketplace's live domains from any app or AI assistant. Everything works without signing in; an OAuth access token unlocks real prices."
        />

        <Section id="search" title="Domain search" description="One JSON endpoint, CORS enabled for browser apps.">
          <CodeBlock>{`curl -X POST ${APP_URL}/api/domain/search \\
  -H 'content-type: application/json' \\
  -H 'authorization: Bearer <ACCESS_TOKEN>' \\
  -d '{"query": "pizza delivery", "limit": 5}'`}</CodeBlock>
          <p>
            Body: <Code>query</Code> (1 to 200 characters: keywords, a name or a URL) and optional <Code>limit</Code> (1 to{" "}
            {PUBLIC_SEARCH_MAX_RESULTS}). Each result has <Code>domain</Code>, <Code>available</Code>,{" "}
            <Code>sale_price_cents</Code>, <Code>currency</Code> and <Code>price_masked</Code>. Without a token the price is{" "}
            <Code>null</Code> and <Code>price_masked</Code> is <Code>true</Code>; an expired or revoked token gets{" "}
            <Code>401 invalid_token</Code> with a <Code>WWW-Authenticate</Code> challenge.
          </p>
          <p>
            Limits: {ANONYMOUS_LIMIT_PER_MIN} requests a minute per IP address without a token, {TOKEN_LIMIT_PER_MIN} per
            token. Responses carry <Code>RateLimit-Limit</Code>, <Code>RateLimit-Remaining</Code> and{" "}
            <Code>RateLimit-Reset</Code>; a <Code>429</Code> carries <Code>Retry-After</Code> in seconds.
          </p>
        </Section>

        <Section
          id="mcp"
          title="Connect an MCP client"
          description="A stateless Streamable HTTP server with one read-only tool, search_domain."
        >
          <p>
            Server URL: <Code>{resources.mcp}</Code>. Add it to your MCP host (Claude, an IDE, the MCP Inspector) as a
            remote HTTP server, for example:
          </p>
          <CodeBlock>{mcpConfig}</CodeBlock>
          <p>
            <Code>search_domain</Code> takes <Code>{`{"query": string, "limit"?: number}`}</Code> and answers with the same
            results as the search endpoint, as readable text and as structured content. Connecting without a token works
            with masked prices. To see prices, let the host sign you in: it discovers the authorization server from{" "}
            <Code>{resourceMetadataUrl("mcp")}</Code>, registers itself and opens the consent page in your browser.
          </p>
        </Section>

        <Section id="oauth" title="Build an OAuth app" description="OAuth 2.1 authorization code with PKCE (S256) for public clients.">
          <ol className="list-decimal space-y-2 pl-5">
            <li>
              Discover: <Code>{`${APP_URL}/.well-known/oauth-authorization-server`}</Code> (also at{" "}
              <Code>/.well-known/openid-configuration</Code>) and the protected-resource documents{" "}
              <Code>{resourceMetadataUrl("app")}</Code> and <Code>{resourceMetadataUrl("mcp")}</Code>.
            </li>
            <li>
              Register: <Code>POST {APP_URL}/api/oauth/register</Code> with <Code>redirect_uris</Code> (https, or http on a
              loopback address with any port) and <Code>client_name</Code>. You get a <Code>client_id</Code>; there is no
              secret.
            </li>
            <li>
              Authorize: send the user to <Code>{APP_URL}/oauth/authorize</Code> with <Code>response_type=code</Code>,{" "}
              <Code>client_id</Code>, <Code>redirect_uri</Code>, <Code>code_challenge</Code>,{" "}
              <Code>code_challenge_method=S256</Code>, <Code>state</Code> and optionally <Code>resource</Code> (
              <Code>{resources.app}</Code> or <Code>{resources.mcp}</Code>). They sign in and consent; you get{" "}
              <Code>code</Code>, <Code>state</Code> and <Code>iss</Code> back.
            </li>
            <li>
              Exchange: <Code>POST {APP_URL}/api/oauth/token</Code> (form encoded) with{" "}
              <Code>grant_type=authorization_code</Code>, <Code>code</Code>, <Code>redirect_uri</Code>,{" "}
              <Code>client_id</Code> and <Code>code_verifier</Code>. Access tokens last 30 minutes; refresh tokens 30 days and
              rotate on every use (<Code>grant_type=refresh_token</Code>).
            </li>
            <li>
              Call: <Code>Authorization: Bearer &lt;access token&gt;</Code> on the search endpoint or the MCP server. Scope:{" "}
              <Badge tone="brand">pricing:read</Badge>
            </li>
          </ol>
        </Section>
      </main>
      <SiteFooter />
    </>
  );
}
