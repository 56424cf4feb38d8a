import { createRequire } from "node:module";
import path from "node:path";

/**
 * `require` resolved from the project root when called, out of a bundler's
 * sight: the encoder's package reads its weights next to its own file
 * (`__dirname`), which a bundled copy would not find.
 */
export function requireAtRuntime<T>(id: string): T {
  return createRequire(path.join(process.cwd(), "package.json"))(id) as T;
}
