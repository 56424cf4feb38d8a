import type { Client } from "openapi-fetch";
import { errorFromBody } from "./errors.js";
import type { paths } from "./generated/openapi.js";

// Lists answer {"data": [...], "next_cursor": "<opaque>" | null}; the cursor goes
// back as `cursor` until it is null. paginate walks every page lazily.

type Get<P extends keyof paths> = paths[P]["get"];
type ListResponse<P extends keyof paths> = Get<P> extends { responses: { 200: { content: { "application/json": infer T } } } } ? T : never;

/** Paths whose GET takes `cursor` and answers `data` + `next_cursor`. */
export type CursorPath = {
  [P in keyof paths]: Get<P> extends { parameters: { query?: { cursor?: string } } }
    ? ListResponse<P> extends { data: unknown[]; next_cursor: string | null }
      ? P
      : never
    : never;
}[keyof paths];

export type PageQuery<P extends CursorPath> = Omit<NonNullable<Get<P> extends { parameters: { query?: infer Q } } ? Q : never>, "cursor">;
export type PageItem<P extends CursorPath> = ListResponse<P> extends { data: (infer T)[] } ? T : never;

export async function* paginate<P extends CursorPath>(api: Client<paths>, path: P, query: PageQuery<P>): AsyncGenerator<PageItem<P>> {
  let cursor: string | undefined;
  for (;;) {
    // The generic path defeats openapi-fetch's per-path overloads; CursorPath guarantees the shape.
    const get = api.GET as unknown as (path: string, init: { params: { query: object } }) => Promise<{ data?: unknown; error?: unknown; response: Response }>;
    const { data, error, response } = await get(path, { params: { query: { ...query, ...(cursor ? { cursor } : {}) } } });
    if (!response.ok) throw errorFromBody(response.status, response.headers, error);
    const page = data as { data: PageItem<P>[]; next_cursor: string | null };
    yield* page.data;
    if (!page.next_cursor) return;
    cursor = page.next_cursor;
  }
}
