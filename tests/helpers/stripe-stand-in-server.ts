// The Stripe stand-in as its own process, for browser tests: Playwright starts
// it beside the app (playwright.config.ts) with the keys the app is given.
//   STRIPE_STAND_IN_PORT=3211 node --import tsx tests/helpers/stripe-stand-in-server.ts
import { E2E_STRIPE_KEYS } from "./stripe-e2e-keys";
import { StripeStandIn } from "./stripe-stand-in";

const port = Number(process.env.STRIPE_STAND_IN_PORT ?? 12111);
const standIn = new StripeStandIn(E2E_STRIPE_KEYS);
await standIn.start(port);
console.log(`Stripe stand-in listening on ${standIn.url}`);
for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => void standIn.stop().then(() => process.exit(0)));
