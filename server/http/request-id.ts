import { newId } from "@/server/ids";

const VALID_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** Echo a well-formed incoming X-Request-Id, else mint one (DECISIONS "Errors"). */
export function requestIdFor(incoming: string | string[] | null | undefined): string {
  return typeof incoming === "string" && VALID_REQUEST_ID.test(incoming) ? incoming : newId("request");
}
