// What only a route knows about a request (the signed request's partner and key,
// the error code), for the web server's log line (http.ts): the web server opens
// a note per request and names its slot in OBSERVE_SLOT_HEADER; the route fills
// it (annotateRequest: a header read and a map lookup, no I/O). Notes live on
// globalThis, shared with the route bundles, and only while the request is in flight.

export const OBSERVE_SLOT_HEADER = "x-observe-slot";

export interface RequestNote {
  partnerId?: string;
  keyId?: string;
  /** The error envelope's code, when the answer is one. */
  errorCode?: string;
}

const holder = globalThis as unknown as { __pdmObserveNotes?: { notes: Map<string, RequestNote>; last: number } };
const state = (holder.__pdmObserveNotes ??= { notes: new Map(), last: 0 });

/** A new, empty note; `close` forgets it once the request is answered. */
export function openNote(): { slot: string; note: RequestNote; close: () => void } {
  const slot = String(++state.last);
  const note: RequestNote = {};
  state.notes.set(slot, note);
  return { slot, note, close: () => state.notes.delete(slot) };
}

/** Fill in the request's note. A no-op outside the web server (tests, the gate server). */
export function annotateRequest(request: Request, note: RequestNote): void {
  const slot = request.headers.get(OBSERVE_SLOT_HEADER);
  const entry = slot === null ? undefined : state.notes.get(slot);
  if (entry) Object.assign(entry, note);
}
