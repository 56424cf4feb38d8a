import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { expect, test, type Page } from "@playwright/test";
import * as oauth from "oauth4webapi";

// The OAuth authorization code flow as a native app runs it (RFC 8252): a
// loopback receiver on 127.0.0.1 with an ephemeral port, Chromium driving the
// real sign-in, sign-up and consent pages, and oauth4webapi (a client library
// nobody here wrote) doing discovery and the token exchange over HTTP.

const buyer = { email: "buyer@example.com", password: "demo-password" };
const options = { [oauth.allowInsecureRequests]: true };

interface Receiver {
  url: string;
  next(): Promise<URL>;
  close(): Promise<void>;
}

async function startReceiver(): Promise<Receiver> {
  let waiting: ((url: URL) => void) | undefined;
  const received: URL[] = [];
  const server: Server = createServer((request, response) => {
    const url = new URL(request.url ?? "/", `http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    response.writeHead(200, { "content-type": "text/html; charset=utf-8" });
    response.end("<!doctype html><title>Done</title><p>You can close this window.</p>");
    if (waiting) waiting(url);
    else received.push(url);
    waiting = undefined;
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/callback`,
    next: () => {
      const ready = received.shift();
      return ready ? Promise.resolve(ready) : new Promise((resolve) => (waiting = resolve));
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

async function discover(baseURL: string) {
  const issuer = new URL(baseURL);
  return oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, { ...options, algorithm: "oauth2" }));
}

async function registerClient(as: oauth.AuthorizationServer, name: string): Promise<oauth.Client> {
  // Registered without a port: any loopback port is accepted at authorize time.
  const response = await fetch(as.registration_endpoint!, {
    method: "POST",
    headers: { "content-type": "application/json", "x-forwarded-for": `10.${Math.floor(Math.random() * 256)}.${Math.floor(Math.random() * 256)}.${1 + Math.floor(Math.random() * 254)}` },
    body: JSON.stringify({ client_name: name, redirect_uris: ["http://127.0.0.1/callback"] }),
  });
  expect(response.status).toBe(201);
  const body = (await response.json()) as { client_id: string };
  return { client_id: body.client_id, token_endpoint_auth_method: "none" };
}

async function authorizeUrl(as: oauth.AuthorizationServer, client: oauth.Client, redirectUri: string) {
  const verifier = oauth.generateRandomCodeVerifier();
  const state = oauth.generateRandomState();
  const url = new URL(as.authorization_endpoint!);
  url.search = new URLSearchParams({
    response_type: "code",
    client_id: client.client_id,
    redirect_uri: redirectUri,
    code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
    code_challenge_method: "S256",
    state,
    scope: "pricing:read",
  }).toString();
  return { url: url.toString(), verifier, state };
}

async function signInFromAuthorize(page: Page, email: string, password: string) {
  await page.getByRole("link", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/sign-in\?callbackUrl=/);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
}

test("a buyer signs in, consents, and oauth4webapi exchanges and refreshes the code", async ({ page, baseURL }) => {
  const receiver = await startReceiver();
  try {
    const as = await discover(baseURL!);
    const client = await registerClient(as, "Claude Desktop (e2e)");
    const flow = await authorizeUrl(as, client, receiver.url);

    const response = await page.goto(flow.url);
    expect(response?.status()).toBe(200);
    await expect(page.getByRole("heading", { name: "Sign in to continue" })).toBeVisible();
    await expect(page.getByText("Claude Desktop (e2e)")).toBeVisible();
    await expect(page.getByRole("link", { name: "Create an account" })).toBeVisible();
    await signInFromAuthorize(page, buyer.email, buyer.password);

    await expect(page.getByRole("heading", { name: /Allow Claude Desktop \(e2e\) to access your account\?/ })).toBeVisible();
    await expect(page.getByTestId("redirect-host")).toHaveText(new URL(receiver.url).host);
    await expect(page.getByText(buyer.email)).toBeVisible();
    await page.screenshot({ path: "test-results/oauth-consent.png", fullPage: true });

    const callbackPromise = receiver.next();
    await page.getByRole("button", { name: "Allow" }).click();
    const callback = await callbackPromise;
    await expect(page.getByText("You can close this window.")).toBeVisible();
    expect(callback.searchParams.get("iss")).toBe(as.issuer);

    const params = oauth.validateAuthResponse(as, client, callback, flow.state);
    const tokens = await oauth.processAuthorizationCodeResponse(
      as,
      client,
      await oauth.authorizationCodeGrantRequest(as, client, oauth.None(), params, receiver.url, flow.verifier, options),
    );
    expect(tokens.token_type).toBe("bearer");
    expect(tokens.expires_in).toBe(1800);
    expect(tokens.scope).toBe("pricing:read");

    const refreshed = await oauth.processRefreshTokenResponse(
      as,
      client,
      await oauth.refreshTokenGrantRequest(as, client, oauth.None(), tokens.refresh_token!, options),
    );
    expect(refreshed.access_token).not.toBe(tokens.access_token);

    // The code is single use.
    await expect(
      oauth
        .authorizationCodeGrantRequest(as, client, oauth.None(), params, receiver.url, flow.verifier, options)
        .then((r) => oauth.processAuthorizationCodeResponse(as, client, r)),
    ).rejects.toMatchObject({ error: "invalid_grant" });
  } finally {
    await receiver.close();
  }
});

test("a new person signs up from the authorize page, then denies", async ({ page, baseURL }) => {
  const receiver = await startReceiver();
  try {
    const as = await discover(baseURL!);
    const client = await registerClient(as, "Denied Agent");
    const flow = await authorizeUrl(as, client, receiver.url);
    await page.goto(flow.url);
    await page.getByRole("link", { name: "Create an account" }).click();
    await expect(page.getByRole("heading", { name: "Create your account" })).toBeVisible();
    await page.getByLabel("Name").fill("New Person");
    await page.getByLabel("Email").fill(`new-${Date.now()}@e2e.example`);
    await page.getByLabel("Password").fill("a long enough password");
    await page.getByRole("button", { name: "Create account" }).click();

    await expect(page.getByRole("heading", { name: /Allow Denied Agent/ })).toBeVisible();
    const callbackPromise = receiver.next();
    await page.getByRole("button", { name: "Deny" }).click();
    const callback = await callbackPromise;
    expect(callback.searchParams.get("error")).toBe("access_denied");
    expect(callback.searchParams.get("state")).toBe(flow.state);
    expect(() => oauth.validateAuthResponse(as, client, callback, flow.state)).toThrow(oauth.AuthorizationResponseError);
  } finally {
    await receiver.close();
  }
});

test("an unregistered redirect_uri shows an error page and never redirects", async ({ page, baseURL }) => {
  const as = await discover(baseURL!);
  const client = await registerClient(as, "Careful Agent");
  const flow = await authorizeUrl(as, client, "https://evil.example/callback");
  const response = await page.goto(flow.url);
  expect(response?.status()).toBe(200);
  expect(new URL(page.url()).origin).toBe(new URL(baseURL!).origin);
  await expect(page.getByRole("heading", { name: "Invalid redirect address" })).toBeVisible();
  await expect(page.locator('meta[name="referrer"]')).toHaveAttribute("content", "no-referrer");
});
