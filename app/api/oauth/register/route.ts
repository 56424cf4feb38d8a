import { optionsHandler, registerHandler } from "@/server/oauth/http";

// RFC 7591 dynamic client registration (public clients only).
export const dynamic = "force-dynamic";
export const POST = registerHandler;
export const OPTIONS = optionsHandler;
