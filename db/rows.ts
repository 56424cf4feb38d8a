import { getTableColumns, type InferSelectModel, type Table } from "drizzle-orm";
import { toSnakeCase } from "drizzle-orm/casing";

/**
 * A table's row read as JSON (`row_to_json`, `json_agg`) back into the shape Drizzle's
 * select gives: column names to field names, each value through its column's own
 * decoder (a timestamptz's text to a Date, a bigint to a number). For statements
 * written as SQL that return whole rows, such as a data-modifying CTE's RETURNING.
 */
export function rowFromJson<T extends Table>(table: T, json: Record<string, unknown>): InferSelectModel<T> {
  const row: Record<string, unknown> = {};
  for (const [field, column] of Object.entries(getTableColumns(table))) {
    // Columns named by their field get their database name from the client's snake_case casing (db/client.ts).
    const value = json[column.keyAsName ? toSnakeCase(column.name) : column.name];
    row[field] = value === null || value === undefined ? null : column.mapFromDriverValue(value);
  }
  return row as InferSelectModel<T>;
}
