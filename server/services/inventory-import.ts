import { createHash } from "node:crypto";
import { and, count, eq, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { domains, type Environment } from "@/db/schema";
import { clock } from "@/server/clock";
import { AppError, isAppError } from "@/server/errors";
import { newId } from "@/server/ids";
import { logError } from "@/server/log";
import { labelsOfNames, registerPhrases } from "@/server/search/phrases";
import { registerVocabulary } from "@/server/search/vocabulary";
import { recordAudit } from "./audit";
import { checkCurrency, checkPrices, normalizeDomainName, tokenizeLabel } from "./inventory";
import type { Actor } from "./partners";

// Bulk listing from a CSV file, all or nothing: every row is checked first (the
// name, the prices, duplicates in the file, what the inventory already holds),
// and only a file without a bad row is applied, in one transaction, by two
// set-based statements (insert and update over unnest), whatever its length.
// The postings search reads are kept by the triggers on `domains` (migration
// 0009), so imported names are found by the very next search.

/** How big one import may be: a file uploaded in the console, or read by the operations CLI. */
export interface ImportLimits {
  maxRows: number;
  maxBytes: number;
}

/** The console's upload: one request, checked and applied within the request limits. */
export const CONSOLE_IMPORT_LIMITS: ImportLimits = { maxRows: 10_000, maxBytes: 2 * 1024 * 1024 };
/** The operations CLI: a whole catalogue in one all-or-nothing transaction (bench/inventory-import.ts measures 100k names). */
export const CLI_IMPORT_LIMITS: ImportLimits = { maxRows: 1_000_000, maxBytes: 64 * 1024 * 1024 };
export const IMPORT_MAX_ROWS = CONSOLE_IMPORT_LIMITS.maxRows;
export const IMPORT_MAX_BYTES = CONSOLE_IMPORT_LIMITS.maxBytes;

const megabytes = (bytes: number) => `${Math.round(bytes / 1024 / 1024)} MB`;
/** The limits in words, for the console and the CLI help. */
export const importLimitsText = (limits: ImportLimits) => `At most ${limits.maxRows.toLocaleString("en-US")} rows and ${megabytes(limits.maxBytes)}.`;
/** Problems listed in a report; the count says how many there were in all. */
const MAX_PROBLEMS = 200;

export const importColumns = ["name", "price_cents", "floor_cents", "currency", "action"] as const;
type Column = (typeof importColumns)[number];
const required: Column[] = ["name", "price_cents"];

/** Shown by the console and the CLI help, so both describe one format. */
export const IMPORT_FORMAT =
  "CSV with a header row: name,price_cents[,floor_cents][,currency][,action]. Prices are whole minor units (cents: 125000 is 1,250.00). " +
  "floor_cents empty = no floor (no floor_cents column: a reprice keeps the floor); currency empty = USD for a new listing, unchanged when repricing; action add (default) lists a new " +
  "or removed name, reprice changes an available listing.";

export interface ImportProblem {
  /** Line of the file, the header being line 1. */
  line: number;
  column: string;
  message: string;
}

export interface ImportReport {
  environment: Environment;
  dryRun: boolean;
  /** True once the rows are written (never with problems, never on a dry run). */
  applied: boolean;
  rows: number;
  /** New names, names listed again after removal, and available listings repriced. */
  added: number;
  relisted: number;
  repriced: number;
  problems: ImportProblem[];
  problemCount: number;
  sha256: string;
}

export interface ImportInput {
  environment: Environment;
  csvText: string;
  reason?: string;
  /** Check and count only; writes nothing. */
  dryRun?: boolean;
  /** Default: the console's. */
  limits?: ImportLimits;
  /**
   * Embed the new labels as search phrases after answering (the console: 10,000 labels take
   * about 40 s, too long to hold a request); the CLI waits, so its process exits with them done.
   */
  phrasesInBackground?: boolean;
}

interface Row {
  line: number;
  action: "add" | "reprice";
  name: string;
  priceCents: number;
  /** undefined: the file has no floor_cents column (a reprice keeps the floor). */
  floorCents: number | null | undefined;
  currency: string | null;
}

export async function importListings(db: Db, input: ImportInput, actor: Actor): Promise<ImportReport> {
  const limits = input.limits ?? CONSOLE_IMPORT_LIMITS;
  const bytes = Buffer.byteLength(input.csvText, "utf8");
  if (bytes > limits.maxBytes) {
    throw new AppError("payload_too_large", `the file is ${(bytes / 1024 / 1024).toFixed(1)} MB; an import takes at most ${megabytes(limits.maxBytes)}: split it into several files`);
  }
  const reason = input.reason?.trim() ?? "";
  if (!input.dryRun && reason.length < 3) {
    throw new AppError("validation_error", "give a reason for the import (it goes in the audit log)", [{ path: "reason", message: "at least 3 characters" }]);
  }
  const sha256 = createHash("sha256").update(input.csvText).digest("hex");
  const parsed = parseRows(input.csvText, limits.maxRows);

  const run = async (tx: Db) => {
    const problems = [...parsed.problems];
    const existing = await existingListings(tx, input.environment, parsed.rows.map((r) => r.name), !input.dryRun);
    const counts = { added: 0, relisted: 0, repriced: 0 };
    for (const row of parsed.rows) {
      const found = existing.get(row.name);
      const problem = conflictOf(row, found, input.environment);
      if (problem) problems.push({ line: row.line, ...problem });
      else if (row.action === "reprice") counts.repriced++;
      else if (found) counts.relisted++;
      else counts.added++;
    }
    problems.sort((a, b) => a.line - b.line);
    const report: ImportReport = {
      environment: input.environment,
      dryRun: Boolean(input.dryRun),
      applied: false,
      rows: parsed.rows.length + parsed.badRows,
      ...counts,
      problems: problems.slice(0, MAX_PROBLEMS),
      problemCount: problems.length,
      sha256,
    };
    if (problems.length > 0 || input.dryRun) return report;
    const listedBefore = await countListed(tx, input.environment);
    await applyRows(tx, input.environment, parsed.rows);
    await recordAudit(tx, actor, {
      action: "domain.imported",
      targetType: "inventory",
      targetId: input.environment,
      environment: input.environment,
      data: {
        before: { listed: listedBefore },
        after: { listed: await countListed(tx, input.environment) },
        rows: report.rows,
        ...counts,
        sha256,
        reason,
      },
    });
    return { ...report, applied: true };
  };

  const report = input.dryRun ? await run(db) : await db.transaction(async (tx) => {
    // Thousands of rows with their index and posting writes on a busy machine outlast the
    // request limit: two minutes, and five seconds more per thousand rows beyond 24,000.
    const seconds = Math.max(120, Math.ceil(parsed.rows.length / 1000) * 5);
    await tx.execute(sql.raw(`set local statement_timeout = '${seconds}s'`));
    return run(tx);
  });
  if (report.applied) {
    // New words are embedded after the commit, best effort (as addDomain): the keyword
    // legs find the names at once; a word the encoder missed is embedded by a later ingest.
    const added = parsed.rows.filter((r) => r.action === "add").flatMap((r) => tokenizeLabel(r.name.slice(0, r.name.indexOf("."))).split(" "));
    await registerVocabulary(db, added).catch((error: unknown) => logError("search vocabulary not updated after an import", error));
    // Each new label as a phrase (server/search/phrases.ts): about 4 ms a label on two cores.
    // The names are found by their words at once; the phrase leg finds them once embedded.
    const labels = labelsOfNames(parsed.rows.filter((r) => r.action === "add").map((r) => r.name));
    const phrases = registerPhrases(db, labels).catch((error: unknown) => logError("search phrases not updated after an import", error));
    if (!input.phrasesInBackground) await phrases;
  }
  return report;
}

function conflictOf(row: Row, found: Existing | undefined, environment: Environment): { column: string; message: string } | null {
  const name = (message: string) => ({ column: "name", message });
  if (found?.status === "sold") return name(`${row.name} is sold in ${environment}`);
  if (found?.status === "reserved") return name(`${row.name} is reserved by an order in ${environment}`);
  if (row.action === "add" && found?.status === "listed") return name(`${row.name} is already listed in ${environment} (put reprice in the action column to change its price)`);
  if (row.action === "reprice" && found?.status !== "listed") return name(`${row.name} is not an available listing in ${environment}; nothing to reprice (use add)`);
  if (row.action === "reprice" && row.floorCents === undefined && found?.floor != null && found.floor > row.priceCents) {
    return { column: "price_cents", message: `below the listing's floor of ${found.floor}; give a floor_cents column to change the floor` };
  }
  return null;
}

interface Existing {
  status: string;
  floor: number | null;
}

/** Status of every named listing; locked when the import will write, so nothing changes between the check and the write. */
async function existingListings(db: Db, environment: Environment, names: string[], lock: boolean) {
  const map = new Map<string, Existing>();
  if (names.length === 0) return map;
  // One text parameter for any number of names (a name never holds a comma).
  const rows = await db.execute<{ name: string; status: string; floor: string | null }>(
    sql`select name, status, floor_price_cents as floor from domains where environment = ${environment} and name = any(string_to_array(${names.join(",")}, ','))
      ${lock ? sql`for update` : sql``}`,
  );
  for (const row of rows) map.set(row.name, { status: row.status, floor: row.floor === null ? null : Number(row.floor) });
  return map;
}

async function countListed(db: Db, environment: Environment): Promise<number> {
  const [row] = await db.select({ n: count() }).from(domains).where(and(eq(domains.environment, environment), eq(domains.status, "listed")));
  return row?.n ?? 0;
}

/** Comma-joined column for string_to_array; '' stands for null. */
const column = (values: (string | number | null)[]) => values.map((v) => (v === null ? "" : String(v))).join(",");

async function applyRows(db: Db, environment: Environment, rows: Row[]) {
  const now = clock.now();
  const adds = rows.filter((r) => r.action === "add");
  const reprices = rows.filter((r) => r.action === "reprice");
  if (adds.length > 0) {
    const parts = adds.map((r) => {
      const dot = r.name.indexOf(".");
      return { label: r.name.slice(0, dot), tld: r.name.slice(dot + 1) };
    });
    // New names are inserted, removed ones listed again (as addDomain does); a name
    // that became listed, reserved or sold since the check is skipped and caught below.
    const written = await db.execute<{ name: string }>(sql`
      insert into domains (id, environment, name, label, tld, status, price_cents, floor_price_cents, currency, tokens, metadata, created_at, updated_at)
      select v.id, ${environment}::environment, v.name, v.label, v.tld, 'listed', v.price::bigint, v.floor::bigint, v.currency, v.tokens,
        '{"source":"import"}'::jsonb, ${now.toISOString()}::timestamptz, ${now.toISOString()}::timestamptz
      from unnest(
        string_to_array(${column(adds.map(() => newId("domain", now.getTime())))}, ','),
        string_to_array(${column(adds.map((r) => r.name))}, ','),
        string_to_array(${column(parts.map((p) => p.label))}, ','),
        string_to_array(${column(parts.map((p) => p.tld))}, ','),
        string_to_array(${column(adds.map((r) => r.priceCents))}, ','),
        string_to_array(${column(adds.map((r) => r.floorCents ?? null))}, ',', ''),
        string_to_array(${column(adds.map((r) => r.currency ?? "USD"))}, ','),
        string_to_array(${column(parts.map((p) => tokenizeLabel(p.label)))}, ',')
      ) as v(id, name, label, tld, price, floor, currency, tokens)
      on conflict (environment, name) do update set
        label = excluded.label, tld = excluded.tld, status = 'listed', price_cents = excluded.price_cents,
        floor_price_cents = excluded.floor_price_cents, currency = excluded.currency, vertical = null, description = null,
        registered_year = null, tokens = excluded.tokens, updated_at = excluded.updated_at
      where domains.status = 'removed'
      returning name`);
    if (written.length !== adds.length) throw changedMeanwhile();
  }
  if (reprices.length > 0) {
    // A file without a floor_cents column leaves every floor as it is.
    const keepFloor = reprices[0]!.floorCents === undefined;
    const written = await db.execute<{ name: string }>(sql`
      update domains d set price_cents = v.price::bigint,
        floor_price_cents = ${keepFloor ? sql`d.floor_price_cents` : sql`v.floor::bigint`}, currency = coalesce(v.currency, d.currency), updated_at = ${now.toISOString()}::timestamptz
      from unnest(
        string_to_array(${column(reprices.map((r) => r.name))}, ','),
        string_to_array(${column(reprices.map((r) => r.priceCents))}, ','),
        string_to_array(${column(reprices.map((r) => r.floorCents ?? null))}, ',', ''),
        string_to_array(${column(reprices.map((r) => r.currency))}, ',', '')
      ) as v(name, price, floor, currency)
      where d.environment = ${environment} and d.name = v.name and d.status = 'listed'
      returning d.name`);
    if (written.length !== reprices.length) throw changedMeanwhile();
  }
}

const changedMeanwhile = () => new AppError("conflict", "the inventory changed while importing (a name was listed or sold meanwhile); nothing was imported: check the file again");

/** Every row checked on its own: the name normalised, prices and currency as addDomain checks them, duplicates in the file. */
function parseRows(text: string, maxRows: number): { rows: Row[]; problems: ImportProblem[]; badRows: number } {
  const records = parseCsv(text.replace(/^\uFEFF/, ""));
  const problems: ImportProblem[] = [];
  const header = records.shift();
  if (!header) throw new AppError("validation_error", "the file is empty: expected a header row such as name,price_cents");
  const columns = header.cells.map((cell) => cell.trim().toLowerCase());
  for (const [index, name] of columns.entries()) {
    if (!(importColumns as readonly string[]).includes(name)) {
      problems.push({ line: header.line, column: name || `column ${index + 1}`, message: `unknown column; the columns are ${importColumns.join(", ")}` });
    } else if (columns.indexOf(name) !== index) problems.push({ line: header.line, column: name, message: "column given twice" });
  }
  for (const name of required) {
    if (!columns.includes(name)) problems.push({ line: header.line, column: name, message: "required column missing from the header" });
  }
  if (problems.length > 0) return { rows: [], problems, badRows: records.length };
  if (records.length === 0) throw new AppError("validation_error", "the file has a header but no rows under it");
  if (records.length > maxRows) {
    throw new AppError("validation_error", `the file has ${records.length.toLocaleString("en-US")} rows; an import takes at most ${maxRows.toLocaleString("en-US")}: split it into several files`);
  }

  const rows: Row[] = [];
  const firstLine = new Map<string, number>();
  let badRows = 0;
  for (const record of records) {
    const cell = (name: Column) => (record.cells[columns.indexOf(name)] ?? "").trim();
    const bad = (column: string, message: string) => problems.push({ line: record.line, column, message });
    const before = problems.length;
    if (record.cells.length > columns.length) bad("row", `${record.cells.length} cells, the header has ${columns.length}`);
    const name = checked(bad, "name", () => normalizeDomainName(cell("name")));
    const price = whole(bad, "price_cents", cell("price_cents"));
    const floorText = cell("floor_cents");
    const floor = !columns.includes("floor_cents") ? undefined : floorText ? whole(bad, "floor_cents", floorText) : null;
    const currencyText = cell("currency");
    const currency = currencyText ? checked(bad, "currency", () => checkCurrency(currencyText)) : null;
    const actionText = cell("action").toLowerCase() || "add";
    if (actionText !== "add" && actionText !== "reprice") bad("action", `"${cell("action")}" is not an action; use add or reprice`);
    if (price !== undefined && (floor !== undefined || !floorText)) {
      checked(bad, "price_cents", () => checkPrices(price, floor));
    }
    if (name !== undefined) {
      const seen = firstLine.get(name);
      if (seen !== undefined) bad("name", `${name} is also on line ${seen}`);
      else firstLine.set(name, record.line);
    }
    if (problems.length > before) {
      badRows++;
      continue;
    }
    rows.push({ line: record.line, action: actionText as Row["action"], name: name!, priceCents: price!, floorCents: floor, currency: currency ?? null });
  }
  return { rows, problems, badRows };
}

/** Runs a service check; its validation_error becomes a problem of this cell (the floor's own message names the floor). */
function checked<T>(bad: (column: string, message: string) => void, column: string, check: () => T): T | undefined {
  try {
    return check();
  } catch (error) {
    if (!isAppError(error) || error.code !== "validation_error") throw error;
    const detail = error.details?.[0];
    bad(detail?.path === "floor" ? "floor_cents" : column, error.message);
    return undefined;
  }
}

function whole(bad: (column: string, message: string) => void, column: string, text: string): number | undefined {
  if (!/^\d+$/.test(text)) {
    bad(column, text ? `"${text}" is not a whole number of minor units (cents: 1250.00 is written 125000)` : "required");
    return undefined;
  }
  const value = Number(text);
  if (!Number.isSafeInteger(value)) {
    bad(column, "too large");
    return undefined;
  }
  return value;
}

interface CsvRecord {
  /** The line the record starts on. */
  line: number;
  cells: string[];
}

/** RFC 4180 records (commas, double quotes doubled, CRLF or LF); blank lines are skipped. */
export function parseCsv(text: string): CsvRecord[] {
  const records: CsvRecord[] = [];
  let cells: string[] = [];
  let cell = "";
  let quoted = false;
  let line = 1;
  let start = 1;
  const endRecord = () => {
    cells.push(cell);
    if (cells.length > 1 || cells[0]!.trim() !== "") records.push({ line: start, cells });
    cells = [];
    cell = "";
  };
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else {
        if (ch === "\n") line++;
        cell += ch;
      }
    } else if (ch === '"' && cell.trim() === "") {
      cell = "";
      quoted = true;
    } else if (ch === ",") {
      cells.push(cell);
      cell = "";
    } else if (ch === "\n" || ch === "\r") {
      if (ch === "\r" && text[i + 1] === "\n") i++;
      endRecord();
      line++;
      start = line;
    } else cell += ch;
  }
  if (quoted) throw new AppError("validation_error", `line ${start}: a quoted cell is not closed`, [{ path: `line ${start}`, message: "unclosed quote" }]);
  endRecord();
  return records;
}
