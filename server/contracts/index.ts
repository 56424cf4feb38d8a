import type { EndpointContract } from "@/server/http/contract";
import { brokerageContracts } from "./brokerage";
import { checkoutContracts } from "./checkout";
import { discoveryContracts } from "./discovery";
import { eventContracts } from "./events";
import { orderContracts } from "./orders";
import { referralContracts } from "./referrals";
import { settlementContracts } from "./settlements";
import { webhookContracts } from "./webhooks";

// Every signed partner endpoint, in documentation order. The OpenAPI document
// (GET /api/partner/v1/openapi.json) is built from this list, and a unit test
// checks that every route file's contract is in it: append new contracts here.

export const partnerContracts: readonly EndpointContract[] = [...discoveryContracts, ...eventContracts, ...orderContracts, ...checkoutContracts, ...settlementContracts, ...webhookContracts, ...brokerageContracts, ...referralContracts];

export * from "./checkout";
export * from "./common";
export * from "./discovery";
export * from "./events";
export * from "./orders";
export * from "./referrals";
export * from "./settlements";
export * from "./webhooks";
export * from "./brokerage";
