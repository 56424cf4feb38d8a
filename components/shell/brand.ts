// Names shown in the UI, kept in one place so titles, headers and tests agree.
export const PRODUCT_NAME = "Domain Marketplace";
export const PRODUCT_TAGLINE = "Sell premium domains from your own product";
export const OPENAPI_URL = "/api/partner/v1/openapi.json";
/** The rendered API reference (Scalar, served by the app from its own origin). */
export const API_REFERENCE_URL = "/docs/api";
