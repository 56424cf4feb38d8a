import type { EndpointContract } from "@/server/http/contract";
import { discoveryContracts } from "./discovery";
import { eventContracts } from "./events";

// Every signed partner endpoint, in documentation order. The OpenAPI document
// (GET /api/partner/v1/openapi.json) is built from this list, and a unit test
// checks that every route file's contract is in it: append new contracts here.

export const partnerContracts: readonly EndpointContract[] = [...discoveryContracts, ...eventContracts];

export * from "./common";
export * from "./discovery";
export * from "./events";
