// Child process of tests/integration/first-run.test.ts: start the embedded
// database for DATA_DIR, run one query, stop it, and print what happened as JSON.
import postgres from "postgres";
import { embeddedClusterDir, ensureDatabase, stopEmbedded } from "@/db/embedded";

const started = performance.now();
const url = await ensureDatabase();
const sql = postgres(url, { max: 1, onnotice: () => {} });
const [row] = await sql<{ user: string }[]>`select current_user as user`;
await sql.end();
const cluster = embeddedClusterDir();
const stopped = await stopEmbedded();
console.log(JSON.stringify({ user: row?.user, cluster, stopped, ms: Math.round(performance.now() - started) }));
