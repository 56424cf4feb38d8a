import { AppError } from "@/server/errors";

// Keyset pagination shared by the list endpoints: each fetches `limit + 1` rows
// in its sort order and hands back an opaque cursor of the last row's sort key.

/**
 * One page of a keyset list fetched with `limit + 1` rows: the first `limit`,
 * and the cursor of the last of them when the extra row shows there is more.
 */
export function pageOf<T>(rows: T[], limit: number, cursorOf: (last: T) => string): { page: T[]; nextCursor: string | null } {
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return { page, nextCursor: rows.length > limit && last ? cursorOf(last) : null };
}

/** Opaque keyset cursor: base64url of the sort key of the last row returned. */
export function encodeCursor(key: string[]): string {
  return Buffer.from(JSON.stringify(key)).toString("base64url");
}

export function decodeCursor(cursor: string, length: number): string[] {
  try {
    const key: unknown = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
    if (Array.isArray(key) && key.length === length && key.every((k) => typeof k === "string" && k.length > 0 && k.length <= 64)) {
      return key as string[];
    }
  } catch {
    // falls through to the validation error
  }
  throw new AppError("validation_error", "cursor is not a next_cursor of this list", [
    { path: "cursor", message: "pass back next_cursor unchanged" },
  ]);
}
