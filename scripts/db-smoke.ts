import { ensureDatabase } from "@/db/embedded";
import { migrateDatabase } from "@/db/migrate";
const t0 = Date.now();
const url = await ensureDatabase();
console.log("db ready", Date.now() - t0, "ms", url.replace(/:[^:@]+@/, ":***@"));
await migrateDatabase(url);
console.log("migrated", Date.now() - t0, "ms");
