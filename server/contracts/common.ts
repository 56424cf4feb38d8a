import { z } from "zod";
import { errorCodes, isAppError } from "@/server/errors";
import { normalizeDomainName } from "@/server/services/inventory";

// Schemas shared by every partner contract. A schema given `.meta({ id })` here
// becomes a named entry of the OpenAPI document's components.schemas.

export const errorCodeSchema = z.enum(Object.keys(errorCodes) as [keyof typeof errorCodes, ...(keyof typeof errorCodes)[]]);

/** The body of every error response (DECISIONS "Errors"). */
export const errorBodySchema = z
  .object({
    error: z.object({
      code: errorCodeSchema.describe("Stable machine-readable code; branch on this, not on the message."),
      message: z.string().describe("Human-readable explanation; wording may change."),
      request_id: z.string().describe("Same value as the X-Request-Id response header; quote it to support."),
      details: z
        .array(
          z.object({
            path: z.string().describe('Dotted path of the offending field as sent, e.g. "domain" or "buyer.email".'),
            message: z.string(),
          }),
        )
        .optional()
        .describe("Present on validation_error: one entry per invalid field."),
    }),
  })
  .meta({ id: "Error", description: "Error response body, identical on every endpoint and status." });

export type ErrorBody = z.infer<typeof errorBodySchema>;

/** Integer amount in minor units (cents); never a float. */
export const moneyCents = z.number().int().nonnegative().describe("Amount in minor currency units (cents), an integer.");

export const currencyCode = z
  .string()
  .regex(/^[A-Z]{3}$/)
  .describe("ISO 4217 three-letter uppercase currency code of the amounts beside it.");

/**
 * A domain name as a partner may type it ("Example.COM.", "münchen.de"),
 * normalised to lowercase ASCII (punycode). Invalid names fail with a detail
 * on the field that carried them.
 */
export const domainNameInput = z
  .string()
  .trim()
  .min(1)
  .max(254)
  .transform((value, ctx) => {
    try {
      return normalizeDomainName(value);
    } catch (error) {
      const message = isAppError(error) ? (error.details?.[0]?.message ?? error.message) : "must be a domain name";
      ctx.addIssue({ code: "custom", message, input: value });
      return z.NEVER;
    }
  })
  .meta({
    description:
      "Domain name, case-insensitive; a trailing dot is ignored and internationalised names are accepted and converted to punycode.",
    examples: ["example.com"],
  });

/** Query parameters of every cursor-paginated list (DECISIONS "Lists, cursors, dates, limits"). */
export const listQuery = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(20).describe("Page size, 1 to 100 (default 20)."),
  cursor: z.string().min(1).max(200).optional().describe("The `next_cursor` of the previous page; omit for the first page."),
});

/** `{"data": [...], "next_cursor": <string|null>}`: the envelope of every cursor-paginated list. */
export function listEnvelope<T extends z.ZodType>(item: T) {
  return z.object({
    data: z.array(item),
    next_cursor: z
      .string()
      .nullable()
      .describe("Opaque cursor of the next page, or null on the last page. Pass it back as `cursor`."),
  });
}

/** An ISO 8601 UTC timestamp as every response writes it. */
export const timestamp = z.iso.datetime().describe("ISO 8601 date-time in UTC, e.g. 2025-01-31T12:00:00.000Z.");

/**
 * A date filter bound (DECISIONS `from`/`to`): an ISO 8601 date, read as midnight
 * UTC, or a date-time with `Z` or an offset.
 */
export const isoInstant = z
  .union([z.iso.date(), z.iso.datetime({ offset: true })])
  .transform((value) => new Date(value.length === 10 ? `${value}T00:00:00.000Z` : value));

/** PostgreSQL text cannot hold U+0000: form and API text that is stored refuses it (a 500 otherwise). */
export const withoutNul = (value: string) => !value.includes("\u0000");
export const NUL_MESSAGE = "must not contain the NUL character (U+0000)";
