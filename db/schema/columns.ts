import { bigint, pgEnum, text, timestamp } from "drizzle-orm/pg-core";

// Shared column shapes. Money is integer minor units (bigint, read as number)
// next to a three-letter currency; times are timestamptz.

export const environment = pgEnum("environment", ["sandbox", "live"]);
export type Environment = (typeof environment.enumValues)[number];

export const money = () => bigint({ mode: "number" });
export const currency = () => text().notNull().default("USD");
export const at = () => timestamp({ withTimezone: true, mode: "date" });
export const createdAt = () => at().notNull().defaultNow();
export const updatedAt = () => at().notNull().defaultNow();
