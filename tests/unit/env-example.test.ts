import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { describe, it } from "node:test";
import { settingSchemas } from "@/server/env";

// .env.example is the operator's list of settings: it must name every setting
// server/env.ts reads, and each value it leaves uncommented must be the default.

const lines = readFileSync(new URL("../../.env.example", import.meta.url), "utf8").split("\n");
const listed = new Map<string, { value: string; commented: boolean }>();
for (const line of lines) {
  const match = /^(# )?([A-Z][A-Z0-9_]+)=(.*)$/.exec(line);
  if (match) listed.set(match[2]!, { value: match[3]!, commented: match[1] !== undefined });
}
const nextAuth = ["NEXTAUTH_SECRET", "NEXTAUTH_URL"];

describe(".env.example", () => {
  it("lists every setting of server/env.ts and next-auth's two, and nothing else", () => {
    assert.deepEqual([...listed.keys()].sort(), [...Object.keys(settingSchemas), ...nextAuth].sort());
  });

  it("gives each uncommented setting its default value", () => {
    for (const [name, { value, commented }] of listed) {
      if (commented || nextAuth.includes(name)) continue;
      const schema = settingSchemas[name]!;
      assert.deepEqual(schema.parse(value), schema.parse(undefined), `${name}=${value} is not the default`);
    }
  });
});
