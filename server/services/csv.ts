import { pipeline, Readable } from "node:stream";
import { stringify } from "csv-stringify";
import { logError } from "@/server/log";
import { currencyDigits } from "@/app/checkout/format";

// CSV files the dashboard streams: RFC 4180 (comma, double quotes doubled,
// CRLF between records, a header row), UTF-8 without a byte-order mark, money
// as decimal currency units beside a currency column. Rows arrive in keyset
// batches and leave as they are written, so an export of any size holds one
// batch in memory.

/** A cell as the source gives it; null is an empty cell. */
export type CsvCell = string | number | null;

export interface CsvColumn<T> {
  header: string;
  value: (row: T) => CsvCell;
}

/** A plain decimal number (e.g. `-12.50`): safe to leave as it is, so it stays a number in a spreadsheet. */
const PLAIN_NUMBER = /^-?\d+(\.\d+)?$/;
/** What a spreadsheet may take as the start of a formula (OWASP "CSV injection"). */
const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * A text cell a spreadsheet would run as a formula (`=HYPERLINK(...)`,
 * `+cmd|...`, `@SUM(...)`, or one starting with a tab or carriage return) gets
 * a leading apostrophe, which spreadsheets show as text; plain numbers are left alone.
 */
export function escapeFormula(value: string): string {
  return FORMULA_START.test(value) && !PLAIN_NUMBER.test(value) ? `'${value}` : value;
}

/** Integer minor units -> `1234.50` (no grouping, no symbol, integer arithmetic: exact for any safe integer). */
export function formatAmount(minor: number | bigint, currency: string): string {
  const digits = currencyDigits(currency);
  const value = BigInt(minor);
  const sign = value < 0n ? "-" : "";
  const abs = value < 0n ? -value : value;
  if (digits === 0) return `${sign}${abs}`;
  const scale = 10n ** BigInt(digits);
  return `${sign}${abs / scale}.${(abs % scale).toString().padStart(digits, "0")}`;
}

export interface Page<T> {
  rows: T[];
  nextCursor: string | null;
}

/**
 * The pages of a keyset list, the first one read now (so a bad filter is an
 * error response, not a broken download) and the rest only as the consumer
 * asks for more.
 */
export async function keysetBatches<T>(fetchPage: (cursor: string | undefined) => Promise<Page<T>>): Promise<AsyncGenerator<T[]>> {
  const first = await fetchPage(undefined);
  return (async function* () {
    yield first.rows;
    let cursor = first.nextCursor;
    while (cursor) {
      const page = await fetchPage(cursor);
      yield page.rows;
      cursor = page.nextCursor;
    }
  })();
}

/** A download cancelled or cut off by the client is not a failure of ours. */
function readerWentAway(error: NodeJS.ErrnoException): boolean {
  return error.name === "AbortError" || error.code === "ABORT_ERR" || error.code === "ERR_STREAM_PREMATURE_CLOSE";
}

/**
 * Streams `batches` as CSV through csv-stringify. Backpressure reaches the
 * database: the next batch is fetched only when the reader has taken what was
 * written. A failure part-way errors the stream (the download breaks off
 * rather than ending as if complete) and is logged under `logTag`.
 */
export function csvStream<T>(columns: readonly CsvColumn<T>[], batches: AsyncIterable<T[]>, logTag: string): ReadableStream<Uint8Array> {
  async function* records() {
    for await (const batch of batches) {
      for (const row of batch) yield columns.map((column) => column.value(row));
    }
  }
  const stringifier = stringify({
    header: true,
    columns: columns.map((column) => column.header),
    record_delimiter: "\r\n",
    // A bare LF or CR inside a cell is quoted too, not only CRLF.
    quoted_match: /[\r\n]/,
    cast: { string: escapeFormula },
  });
  // pipeline destroys both ends together: a reader that goes away ends the batches too.
  pipeline(Readable.from(records()), stringifier, (error) => {
    if (error && !readerWentAway(error)) logError(logTag, error);
  });
  return Readable.toWeb(stringifier) as ReadableStream<Uint8Array>;
}
