import { AppError } from "@/server/errors";

// The one way a request body is read: a running byte count that stops at the
// limit, before anything is parsed or authenticated. A declared Content-Length
// over the limit is refused unread; a chunked body is cancelled as soon as the
// count passes the limit, so at most limit + one chunk is ever pulled.

export const BODY_LIMITS = {
  partner: 1024 * 1024,
  oauth: 64 * 1024,
  mcp: 64 * 1024,
  publicSearch: 8 * 1024,
} as const;

const tooLargeError = (limit: number) => new AppError("payload_too_large", `request body exceeds ${describeBytes(limit)}`);

export async function readBodyLimited(
  request: Request,
  limit: number,
  tooLarge: (limit: number) => Error = tooLargeError,
): Promise<Uint8Array> {
  const declared = request.headers.get("content-length");
  if (declared !== null && Number(declared) > limit) throw tooLarge(limit);
  if (!request.body) return new Uint8Array();
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > limit) {
      await reader.cancel().catch(() => {});
      throw tooLarge(limit);
    }
    chunks.push(value);
  }
  if (chunks.length === 1) return chunks[0]!;
  const out = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return out;
}

/** The body as UTF-8 text (invalid bytes become U+FFFD, as Request.text() does). */
export async function readTextLimited(request: Request, limit: number, tooLarge?: (limit: number) => Error): Promise<string> {
  return new TextDecoder().decode(await readBodyLimited(request, limit, tooLarge));
}

function describeBytes(bytes: number): string {
  return bytes % (1024 * 1024) === 0 ? `${bytes / (1024 * 1024)} MiB` : bytes % 1024 === 0 ? `${bytes / 1024} KiB` : `${bytes} bytes`;
}
