// npm run build's second step: completes .next/standalone into the folder that
// hosts and the Docker image run (server/cli/standalone.ts says what it holds).
import { packageStandalone, StandaloneError } from "@/server/cli/standalone";

try {
  const out = await packageStandalone();
  console.log(`standalone output ready in ${out}: node web.mjs | node worker.mjs | node migrate.mjs`);
} catch (error) {
  console.error(`standalone: ${error instanceof StandaloneError ? error.message : (error as Error).message}`);
  process.exit(1);
}
