// npm run db:stop: stop the embedded PostgreSQL that `npm start` left running
// (it is a daemon shared by start, tests and the CLI, so nothing else stops it).
import { stopEmbedded } from "@/db/embedded";
import { getEnv } from "@/server/env";

if (getEnv().DATABASE_URL) {
  console.log("DATABASE_URL is set: that server is not ours to stop.");
} else if (await stopEmbedded()) {
  console.log(`Stopped the embedded PostgreSQL under ${getEnv().dataDir}.`);
} else {
  console.log(`The embedded PostgreSQL under ${getEnv().dataDir} is not running.`);
}
