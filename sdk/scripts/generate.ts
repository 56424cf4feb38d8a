// npm run sdk:generate - rewrite sdk/src/generated/ from the current OpenAPI document.
import { mkdirSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import path from "node:path";
import { GENERATED_DIR, generateSdkFiles } from "./openapi-types";

const dir = fileURLToPath(GENERATED_DIR);
mkdirSync(dir, { recursive: true });
for (const [name, text] of Object.entries(await generateSdkFiles())) {
  writeFileSync(path.join(dir, name), text);
  console.log(`wrote ${path.relative(process.cwd(), path.join(dir, name))}`);
}
