import { randomUUID } from "node:crypto";
import { expect, test } from "@playwright/test";
import { eq } from "drizzle-orm";
import { closeDb, getDb } from "@/db/client";
import { users } from "@/db/schema";
import { createCredential } from "@/server/services/partners";
import { canonicalString, EMPTY_BODY_SHA256, SIGNATURE_HEADERS, signCanonical } from "@/server/signing/canonical";
import { createPartnerClient } from "@/server/signing/client";
import { expectAccessible, saveScreenshots, signUpNewPartner } from "./helpers";

// The request log: a new partner's sandbox key makes a good call, a call signed
// without its query string and a replay of the good call; all three appear in
// the log, the 4xx filter lives in the URL, the signature debugger names what
// went wrong, and the live environment starts empty.

const SEARCH = "/api/partner/v1/domains/search";

test("the request log lists signed calls and the sandbox debugger explains the refused ones", async ({ page, baseURL }) => {
  const partner = await signUpNewPartner(page);

  const db = getDb();
  const [user] = await db.select({ partnerId: users.partnerId }).from(users).where(eq(users.email, partner.email));
  if (!user?.partnerId) throw new Error(`no partner user ${partner.email}`);
  const key = await createCredential(db, { partnerId: user.partnerId, environment: "sandbox", scopes: ["search"], label: "E2E request log" });
  await closeDb();

  // A client address of its own: its own rate-limit bucket, and a value to look for in the log.
  const ip = `203.0.113.${1 + Math.floor(Math.random() * 250)}`;

  // 1. A good call; the client's fetch is recorded so the same signed request can be replayed.
  let sent: { url: string; init: RequestInit } | undefined;
  const client = createPartnerClient({
    baseUrl: baseURL!,
    keyId: key.keyId,
    secret: key.secret,
    fetch: (url, init) => {
      sent = { url: String(url), init: init ?? {} };
      return fetch(url, init);
    },
  });
  const good = await client.request("GET", `${SEARCH}?q=request-log`, undefined, { headers: { "x-forwarded-for": ip } });
  expect(good.status, JSON.stringify(good.body)).toBe(200);

  // 2. Signed as if there were no query string, sent with one.
  const timestamp = String(Math.floor(Date.now() / 1000));
  const nonce = randomUUID();
  const unsigned = canonicalString({ method: "GET", path: SEARCH, query: "", timestamp, nonce, bodySha256: EMPTY_BODY_SHA256 });
  const misSigned = await fetch(`${baseURL}${SEARCH}?q=mis-signed`, {
    headers: {
      [SIGNATURE_HEADERS.keyId]: key.keyId,
      [SIGNATURE_HEADERS.timestamp]: timestamp,
      [SIGNATURE_HEADERS.nonce]: nonce,
      [SIGNATURE_HEADERS.signature]: signCanonical(key.secret, unsigned),
      "x-forwarded-for": ip,
    },
  });
  expect(misSigned.status).toBe(401);
  expect(((await misSigned.json()) as { error: { code: string } }).error.code).toBe("invalid_signature");

  // 3. The good call again, nonce and all.
  const replay = await fetch(sent!.url, sent!.init);
  expect(replay.status).toBe(401);
  expect(((await replay.json()) as { error: { code: string } }).error.code).toBe("replay_detected");

  // All three, newest first (the log is written in batches every 250 ms; the page refreshes every 5 s).
  await page.goto("/dashboard/requests");
  await expect(page.getByRole("heading", { level: 1, name: "Request log" })).toBeVisible();
  const rows = page.getByTestId("request-row");
  await expect(rows).toHaveCount(3);
  await expect(rows.nth(0)).toContainText("replay_detected");
  await expect(rows.nth(1)).toContainText("invalid_signature");
  await expect(rows.nth(2)).toContainText("200");
  await expect(rows.nth(2)).toContainText(ip);
  await expect(rows.nth(2)).toContainText(key.keyId);
  for (const row of await rows.all()) await expect(row.getByRole("button", { name: `GET ${SEARCH}` })).toBeVisible();
  await expectAccessible(page, "request log");
  await saveScreenshots(page, "requests-list");

  // The 4xx filter is in the URL and leaves the two refused calls.
  await page.getByLabel("Status").selectOption("4xx");
  await expect(page).toHaveURL(/[?&]status=4xx/);
  await expect(rows).toHaveCount(2);
  await expect(rows.getByTestId("status-badge")).toHaveText(["401", "401"]);

  // The mis-signed call: the debugger says the query string was left out and shows the server's canonical string.
  await rows.filter({ hasText: "invalid_signature" }).getByRole("button", { name: `GET ${SEARCH}` }).click();
  await expect(page).toHaveURL(/[?&]request=\d+/);
  const dialog = page.getByRole("dialog");
  await expect(dialog.getByTestId("signature-debugger")).toBeVisible();
  await expect(dialog.getByTestId("debug-failed")).toHaveAttribute("data-failed", "query");
  await expect(dialog.getByTestId("debug-explanation")).toContainText("without its query string");
  const canonical = dialog.getByTestId("canonical-string");
  await expect(canonical).toContainText(SEARCH);
  await expect(canonical).toContainText("q=mis-signed");
  await expect(canonical).toContainText(nonce);
  await expect(canonical).toContainText(EMPTY_BODY_SHA256);
  await expect(canonical.locator("[data-line]")).toHaveCount(6);
  await expect(dialog.getByRole("button", { name: "Copy canonical string" })).toBeVisible();
  await expect(dialog.getByRole("link", { name: /API reference/ })).toHaveAttribute("href", "/docs/api");
  await canonical.scrollIntoViewIfNeeded();
  await expectAccessible(page, "request detail with the signature debugger");
  await saveScreenshots(page, "requests-debugger");

  // The same URL opens the same request after a reload (a shareable link).
  await page.reload();
  await expect(page.getByRole("dialog").getByTestId("debug-explanation")).toContainText("without its query string");
  await page.keyboard.press("Escape");
  await expect(page).not.toHaveURL(/[?&]request=/);
  await expect(page).toHaveURL(/[?&]status=4xx/);

  // The replay: nonce reuse, in words.
  await rows.filter({ hasText: "replay_detected" }).getByRole("button", { name: `GET ${SEARCH}` }).click();
  await expect(dialog.getByTestId("debug-failed")).toHaveAttribute("data-failed", "nonce_reuse");
  await expect(dialog.getByTestId("debug-failed")).toContainText("The nonce was used before");
  await expect(dialog.getByTestId("debug-explanation")).toContainText("nonce was already used");
  await page.keyboard.press("Escape");

  // Live has its own (empty) log.
  await page.goto("/dashboard/requests");
  await page.getByTestId("environment-switch").getByRole("button", { name: /^live$/i }).click();
  await expect(page.getByText("No requests yet")).toBeVisible();
  await expect(page.getByRole("link", { name: "Go to API keys" })).toHaveAttribute("href", "/dashboard/keys");
  await expect(page.getByTestId("request-row")).toHaveCount(0);
  await expectAccessible(page, "empty live request log");
  await saveScreenshots(page, "requests-empty-live");
});
