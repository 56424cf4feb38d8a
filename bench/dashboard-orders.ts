// The dashboard's orders list and CSV export over one partner's 100k orders:
// p50/p95 of the first page, a deep keyset page and filtered + domain-search
// pages (the service GET /orders, tRPC orders.list and the export share), the
// index each plan used, then full CSV exports (rows/s, peak RSS).
//
//   DATABASE_URL=postgres://... npx tsx bench/dashboard-orders.ts
//
// BENCH_ORDERS (default 100000) and BENCH_RUNS (default 50) adjust it; the bench
// partner and its rows are deleted at the end unless BENCH_KEEP=1. Without
// DATABASE_URL it uses the embedded database. Seeding is one INSERT ... SELECT
// generate_series for the listings and one for the orders. Run it as
// `node --max-old-space-size=40 --import tsx bench/dashboard-orders.ts` to see
// the exports finish in a heap far smaller than their rows.
import { performance } from "node:perf_hooks";
import { sql } from "drizzle-orm";
import { drizzle } from "drizzle-orm/postgres-js";
import { closeDb, getDb, getPool } from "@/db/client";
import { ensureDatabase } from "@/db/embedded";
import { migrateDatabase } from "@/db/migrate";
import * as schema from "@/db/schema";
import { randomBase62 } from "@/server/ids";
import { startExport, type ExportListName } from "@/server/services/exports";
import { encodeOrderCursor, listOrders, type ListOrdersInput } from "@/server/services/orders";
import { createPartner } from "@/server/services/partners";

const total = Number(process.env.BENCH_ORDERS ?? 100_000);
const runs = Number(process.env.BENCH_RUNS ?? 50);
const keep = process.env.BENCH_KEEP === "1";
const WORDS = ["shop", "pizza", "cloud", "law", "bike", "green", "data", "home", "travel", "pet"];
const WORDS_ARRAY = `{${WORDS.join(",")}}`;

process.env.DATABASE_URL ??= await ensureDatabase();
await migrateDatabase(process.env.DATABASE_URL);
const db = getDb();

// --- seed -----------------------------------------------------------------------------
const suffix = randomBase62(6).toLowerCase();
const partner = await createPartner(db, { name: `Dashboard orders bench ${suffix}`, email: `bench-dash-orders-${suffix}@bench.example`, paymentModel: "mor" });
const owner = { partnerId: partner.partnerId, environment: "sandbox" as const };
const seedStarted = performance.now();
await db.transaction(async (tx) => {
  await tx.execute(sql`set local statement_timeout = 0`);
  await tx.execute(sql`
    insert into domains (id, environment, name, label, tld, status, price_cents, currency, tokens)
    select 'dom_bd' || ${suffix} || lpad(i::text, 9, '0'), 'sandbox', n.label || '.com', n.label, 'com', 'sold',
           1000 + (i * 7919) % 500000, 'USD', n.label
    from generate_series(1, ${total}) as i,
         lateral (select 'bd' || ${suffix} || (${WORDS_ARRAY}::text[])[1 + i % ${WORDS.length}] || i as label) n`);
  // Newest order = i 1, one every 5 minutes backwards (about a year for 100k); ids sort like created_at.
  await tx.execute(sql`
    insert into orders (id, partner_id, environment, domain_id, domain, status, channel, sale_price_cents, currency,
                        commission_bps, commission_cents, buyer_email, buyer_name, created_at, updated_at)
    select 'ord_' || lpad((extract(epoch from t.at) * 1000)::bigint::text, 13, '0') || substr(md5(${suffix} || i), 1, 9),
           ${partner.partnerId}, 'sandbox', 'dom_bd' || ${suffix} || lpad(i::text, 9, '0'),
           'bd' || ${suffix} || (${WORDS_ARRAY}::text[])[1 + i % ${WORDS.length}] || i || '.com',
           (case when i % 20 = 0 then 'REFUNDED' when i % 20 = 1 then 'MANUAL_REVIEW' when i % 20 < 5 then 'TRANSFER_IN_PROGRESS'
                 when i % 20 < 10 then 'TRANSFER_COMPLETED' when i % 20 < 15 then 'SETTLED' else 'EXTERNALLY_PAID' end)::order_status,
           (case when i % 10 = 0 then 'checkout' else 'mor' end)::sale_channel,
           1000 + (i * 7919) % 500000, 'USD', 1000, (1000 + (i * 7919) % 500000 + 5) / 10,
           'buyer' || i || '@bench.example', 'Buyer ' || i, t.at, t.at
    from generate_series(1, ${total}) as i, lateral (select now() - i * interval '5 minutes' - (i % 997) * interval '1 microsecond' as at) t`);
});
await db.execute(sql`analyze orders`);
await db.execute(sql`analyze domains`);
const seedSeconds = (performance.now() - seedStarted) / 1000;

// --- list pages ------------------------------------------------------------------------
// A second drizzle over the same pool records the SQL listOrders sends, to EXPLAIN it.
let lastQuery: { query: string; params: unknown[] } | undefined;
const recording = drizzle(getPool().sql, { schema, casing: "snake_case", logger: { logQuery: (query, params) => (lastQuery = { query, params }) } });

const indexLabels: Record<string, string> = {
  orders_pkey: "pkey (cursor row)",
  orders_partner_id_environment_created_at_id_index: "(partner, env, created_at, id)",
  orders_partner_id_environment_id_index: "(partner, env, id)",
  orders_partner_id_environment_status_index: "(partner, env, status)",
  orders_domain_trgm: "domain trigram GIN",
};

async function indexesUsed(input: ListOrdersInput): Promise<string> {
  await listOrders(recording as typeof db, input);
  const { query, params } = lastQuery!;
  const [row] = await getPool().sql.unsafe(`explain (format json) ${query}`, params as never[]);
  const names = new Set<string>();
  const walk = (node: Record<string, unknown>) => {
    if (typeof node["Index Name"] === "string") names.add(node["Index Name"]);
    for (const child of (node.Plans as Record<string, unknown>[] | undefined) ?? []) walk(child);
  };
  walk((row!["QUERY PLAN"] as { Plan: Record<string, unknown> }[])[0]!.Plan);
  return [...names].map((n) => indexLabels[n] ?? n).join(" + ") || "seq scan";
}

const [deep] = await db.execute<{ id: string }>(sql`
  select id from orders where partner_id = ${partner.partnerId} and environment = 'sandbox'
  order by created_at desc, id desc offset ${Math.floor(total * 0.9)} limit 1`);
// A few names: the word of i = 3333 followed by its digits matches i = 3333 and 33333 (at 100k).
const rareI = Math.min(3333, total);
const rare = `${WORDS[rareI % WORDS.length]}${rareI}`;

const cases: { name: string; input: ListOrdersInput }[] = [
  { name: "first page", input: { ...owner, limit: 25 } },
  { name: `deep keyset page (row ${Math.floor(total * 0.9)})`, input: { ...owner, limit: 25, cursor: encodeOrderCursor(deep!.id) } },
  { name: "status + channel + 30 days", input: { ...owner, limit: 25, statuses: ["EXTERNALLY_PAID"], channels: ["mor"], from: new Date(Date.now() - 30 * 86_400_000) } },
  { name: "status + search 'pizza' (10 %)", input: { ...owner, limit: 25, statuses: ["SETTLED", "TRANSFER_COMPLETED"], search: "pizza" } },
  { name: `search '${rare}' (rare)`, input: { ...owner, limit: 25, search: rare } },
];

const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((sorted.length - 1) * p))]!;
const listRows: string[][] = [];
for (const c of cases) {
  await listOrders(db, c.input); // warm: plan cache, buffers
  const times: number[] = [];
  let rows = 0;
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    rows = (await listOrders(db, c.input)).orders.length;
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  listRows.push([c.name, String(rows), pct(times, 0.5).toFixed(2), pct(times, 0.95).toFixed(2), await indexesUsed(c.input)]);
}

// --- CSV exports ------------------------------------------------------------------------
async function timeExport(list: ExportListName) {
  global.gc?.();
  const baseline = process.memoryUsage().rss;
  let peak = baseline;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 10);
  const started = performance.now();
  const run = await startExport(db, {
    list,
    reader: { ...owner, paymentModel: "mor", isAffiliate: false, viewer: false },
    params: new URLSearchParams(),
    now: new Date(),
    logTag: "bench",
  });
  let bytes = 0;
  let lines = 0;
  const reader = run.stream.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    bytes += value.byteLength;
    for (const byte of value) if (byte === 10) lines++;
  }
  const seconds = (performance.now() - started) / 1000;
  clearInterval(sampler);
  peak = Math.max(peak, process.memoryUsage().rss);
  const rows = lines - 1;
  return [list, String(rows), seconds.toFixed(2), Math.round(rows / seconds).toLocaleString("en-US"), (bytes / 1e6).toFixed(1), (baseline / 1e6).toFixed(0), (peak / 1e6).toFixed(0), ((peak - baseline) / 1e6).toFixed(0)];
}
const exportRows = [await timeExport("orders"), await timeExport("transactions")];

// --- report -----------------------------------------------------------------------------
function table(header: string[], rows: string[][]) {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => (i === 0 || i === cells.length - 1 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join(" | ")} |`;
  console.log(line(header));
  console.log(`|${widths.map((w) => "-".repeat(w + 2)).join("|")}|`);
  for (const r of rows) console.log(line(r));
}
console.log(`\nseeded ${total.toLocaleString("en-US")} orders (and listings) for one partner in ${seedSeconds.toFixed(1)} s; ${runs} runs per page, limit 25\n`);
table(["page (listOrders)", "rows", "p50 ms", "p95 ms", "index"], listRows);
console.log("");
table(["CSV export", "rows", "seconds", "rows/s", "MB", "RSS before MB", "peak RSS MB", "delta MB"], exportRows);

if (!keep) {
  // Orders first, then vacuum: the foreign-key check of each deleted listing scans
  // orders (no index serves domain_id alone), and 100k dead rows would make that quadratic.
  await db.delete(schema.orders).where(sql`${schema.orders.partnerId} = ${partner.partnerId}`);
  await db.execute(sql`vacuum orders`);
  await db.transaction(async (tx) => {
    await tx.execute(sql`set local statement_timeout = 0`);
    await tx.execute(sql`delete from domains where id like ${`dom_bd${suffix}%`}`);
    await tx.execute(sql`delete from audit_log where partner_id = ${partner.partnerId}`);
    await tx.execute(sql`delete from users where partner_id = ${partner.partnerId}`);
    await tx.execute(sql`delete from partners where id = ${partner.partnerId}`);
  });
}
await closeDb();
