import { optionsHandler, protectedResourceHandler } from "@/server/oauth/http";

// RFC 9728 metadata of the public API (resource = APP_URL).
export const dynamic = "force-dynamic";
export const GET = () => protectedResourceHandler("app");
export const OPTIONS = optionsHandler;
