import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, it } from "node:test";
import { Counter, Gauge, Histogram, Registry } from "prom-client";
import { restartDelayMs } from "@/server/cli/web-cluster";
import { loadEnv } from "@/server/env";
import { aggregateWorkers, type MetricJson } from "@/server/observability/cluster-metrics";
import { scrapeRefusal } from "@/server/observability/metrics";
import { buildRouteTable, loadAppRoutes, STATIC_FILE, UNMATCHED } from "@/server/observability/routes";

// Route classes (the metric label and the log line's route) and who may scrape /metrics.

describe("route classes", () => {
  const table = buildRouteTable(
    ["/", "/api/partner/v1/orders", "/api/partner/v1/orders/[public_id]", "/api/partner/v1/domains/search", "/api/partner/v1/domains/[name]", "/api/[...path]", "/docs/[[...slug]]"],
    ["/favicon.svg"],
  );

  it("picks static segments over [params] over catch-alls, as Next does", () => {
    assert.equal(table.classify("/"), "/");
    assert.equal(table.classify("/api/partner/v1/orders"), "/api/partner/v1/orders");
    assert.equal(table.classify("/api/partner/v1/orders/ord_01HXYZ"), "/api/partner/v1/orders/[public_id]");
    assert.equal(table.classify("/api/partner/v1/domains/search"), "/api/partner/v1/domains/search");
    assert.equal(table.classify("/api/partner/v1/domains/coffee.com"), "/api/partner/v1/domains/[name]");
    assert.equal(table.classify("/api/partner/v1/orders/ord_1/extra"), "/api/[...path]");
    assert.equal(table.classify("/api/nothing"), "/api/[...path]");
    assert.equal(table.classify("/docs"), "/docs/[[...slug]]");
    assert.equal(table.classify("/docs/a/b"), "/docs/[[...slug]]");
  });

  it("gives Next's assets, public files and everything else a fixed class", () => {
    assert.equal(table.classify("/_next/static/chunks/app-1234.js"), "/_next/static");
    assert.equal(table.classify("/_next/image"), "/_next/image");
    assert.equal(table.classify("/favicon.svg"), STATIC_FILE);
    assert.equal(table.classify("/wp-login.php"), UNMATCHED);
  });

  it("reads this app's routes from app/, without route groups", () => {
    const routes = loadAppRoutes();
    for (const route of ["/", "/dashboard/orders/[id]", "/api/partner/v1/orders/[public_id]", "/api/health/ready", "/metrics", "/api/[...path]"]) {
      assert.ok(routes.includes(route), `${route} is missing from ${routes.join(" ")}`);
    }
    assert.ok(!routes.some((route) => route.includes("(")), "route groups are not part of a path");
  });

  it("in a standalone output, adds the build manifest's routes to the part of app/ Next traced", () => {
    // What .next/standalone holds: app/ with only the files a route reads, and the manifest.
    const root = mkdtempSync(path.join(os.tmpdir(), "routes-"));
    try {
      mkdirSync(path.join(root, "app", "docs", "api", "scalar.js"), { recursive: true });
      writeFileSync(path.join(root, "app", "docs", "api", "scalar.js", "bundle.txt"), "");
      mkdirSync(path.join(root, ".next", "server"), { recursive: true });
      const manifest = { "/api/partner/v1/orders/[public_id]/route": "x.js", "/(dashboard)/dashboard/page": "y.js", "/docs/api/route": "z.js" };
      writeFileSync(path.join(root, ".next", "server", "app-paths-manifest.json"), JSON.stringify(manifest));
      const routes = loadAppRoutes(root);
      assert.deepEqual([...routes].sort(), ["/api/partner/v1/orders/[public_id]", "/dashboard", "/docs/api"]);
      assert.equal(buildRouteTable(routes).classify("/api/partner/v1/orders/ord_123"), "/api/partner/v1/orders/[public_id]");
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});

describe("who may scrape /metrics", () => {
  const token = "a-metrics-token-0123456789";

  it("without METRICS_TOKEN: anyone in development, nobody in production (404, as if absent)", () => {
    assert.equal(scrapeRefusal({ APP_ENV: "development", METRICS_TOKEN: undefined }, undefined), undefined);
    const hidden = scrapeRefusal({ APP_ENV: "production", METRICS_TOKEN: undefined }, `Bearer ${token}`);
    assert.equal(hidden?.status, 404);
  });

  it("with METRICS_TOKEN: only Authorization: Bearer <token>, in every mode", () => {
    for (const APP_ENV of ["development", "production"] as const) {
      assert.equal(scrapeRefusal({ APP_ENV, METRICS_TOKEN: token }, `Bearer ${token}`), undefined);
      assert.equal(scrapeRefusal({ APP_ENV, METRICS_TOKEN: token }, `bearer  ${token}`), undefined);
      for (const header of [undefined, "", token, `Bearer ${token}x`, `Basic ${token}`, "Bearer "]) {
        const refusal = scrapeRefusal({ APP_ENV, METRICS_TOKEN: token }, header);
        assert.equal(refusal?.status, 401, String(header));
        assert.equal(refusal?.headers?.["www-authenticate"], 'Bearer realm="metrics"');
      }
    }
  });

  // A SECRET_KEY, so that loading settings in development writes no key file.
  const base = { SECRET_KEY: "x".repeat(40), DATA_DIR: "/tmp/pdm-unit-env" };

  it("settings: a short token or a bad port is refused with its sentence; logs are pretty only in development", () => {
    assert.throws(() => loadEnv({ ...base, METRICS_TOKEN: "short" }), /METRICS_TOKEN: must be at least 16 characters/);
    assert.throws(() => loadEnv({ ...base, METRICS_PORT: "70000" }), /METRICS_PORT: must be 1-65535/);
    assert.throws(() => loadEnv({ ...base, LOG_LEVEL: "loud" }), /LOG_LEVEL/);
    assert.equal(loadEnv({ ...base, NODE_ENV: "development" }).LOG_FORMAT, "pretty");
    assert.equal(loadEnv({ ...base, NODE_ENV: "test" }).LOG_FORMAT, "json");
    assert.equal(loadEnv({ ...base, NODE_ENV: "production" }).LOG_FORMAT, "json");
    assert.equal(loadEnv({ ...base, NODE_ENV: "development", LOG_FORMAT: "json" }).LOG_FORMAT, "json");
  });
});

describe("a web cluster (WEB_CONCURRENCY > 1)", () => {
  const base = { SECRET_KEY: "x".repeat(40), DATA_DIR: "/tmp/pdm-unit-env" };

  it("settings: WEB_CONCURRENCY is 1 unless set, a whole number of 1-64", () => {
    assert.equal(loadEnv(base).WEB_CONCURRENCY, 1);
    assert.equal(loadEnv({ ...base, WEB_CONCURRENCY: "2" }).WEB_CONCURRENCY, 2);
    for (const bad of ["0", "65", "1.5", "two"]) assert.throws(() => loadEnv({ ...base, WEB_CONCURRENCY: bad }), /WEB_CONCURRENCY/, bad);
  });

  it("replaces a dead worker after 250 ms, doubling with each exit of the last minute up to 30 s", () => {
    assert.deepEqual([1, 2, 3, 4, 8, 20].map(restartDelayMs), [250, 500, 1000, 2000, 30_000, 30_000]);
  });

  it("/metrics adds the workers' counters and histograms up; the database-wide gauges are the scraped worker's", async () => {
    const worker = async (requests: number, seconds: number[], queue: number) => {
      const registry = new Registry();
      const counter = new Counter({ name: "http_requests_total", help: "h", labelNames: ["route"], registers: [registry] });
      const histogram = new Histogram({ name: "http_request_duration_seconds", help: "h", buckets: [0.01, 0.1], registers: [registry] });
      const gauge = new Gauge({ name: "webhook_queue_deliveries", help: "h", labelNames: ["state"], registers: [registry] });
      counter.inc({ route: "/api/ping" }, requests);
      for (const s of seconds) histogram.observe(s);
      gauge.set({ state: "due" }, queue);
      return (await registry.getMetricsAsJSON()) as unknown as MetricJson[];
    };
    // Worker 2 was scraped and has just read the queue (7); worker 1's reading is older (3).
    const replies = new Map([
      [1, await worker(5, [0.005, 0.05], 3)],
      [2, await worker(4, [0.5], 7)],
    ]);
    const text = await aggregateWorkers(replies, 2).metrics();
    assert.match(text, /^http_requests_total\{route="\/api\/ping"\} 9$/m);
    assert.match(text, /^http_request_duration_seconds_bucket\{le="0.01"\} 1$/m);
    assert.match(text, /^http_request_duration_seconds_bucket\{le="\+Inf"\} 3$/m);
    assert.match(text, /^http_request_duration_seconds_count 3$/m);
    assert.match(text, /^webhook_queue_deliveries\{state="due"\} 7$/m);
  });
});
