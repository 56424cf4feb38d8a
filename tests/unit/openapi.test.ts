import assert from "node:assert/strict";
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, it } from "node:test";

process.env.SECRET_KEY ??= "unit-test-secret-key-unit-test-secret-key";
const { buildOpenApiDocument, OPENAPI_PATH } = await import("@/server/openapi/build");
const { getOpenApiDocument } = await import("@/server/openapi/document");
const { partnerContracts } = await import("@/server/contracts");
const { canonicalString, EMPTY_BODY_SHA256 } = await import("@/server/signing/canonical");
const openapiRoute = await import("@/app/api/partner/v1/openapi.json/route");

// The API reference is generated, so these tests check its shape and its
// completeness rather than its prose.

type Json = Record<string, unknown>;
const doc = buildOpenApiDocument({ contracts: partnerContracts, serverUrl: "https://api.example.test" });
const methods = ["get", "post", "put", "patch", "delete"] as const;

function operations(): { path: string; method: string; op: Json }[] {
  return Object.entries(doc.paths).flatMap(([p, item]) =>
    methods.flatMap((m) => (item[m] ? [{ path: p, method: m, op: item[m] as Json }] : [])),
  );
}

function resolvePointer(root: unknown, ref: string): unknown {
  assert.ok(ref.startsWith("#/"), `only local refs are used: ${ref}`);
  return ref
    .slice(2)
    .split("/")
    .map((part) => part.replace(/~1/g, "/").replace(/~0/g, "~"))
    .reduce<unknown>((node, key) => (node && typeof node === "object" ? (node as Json)[key] : undefined), root);
}

function collectRefs(node: unknown, out: string[] = []): string[] {
  if (Array.isArray(node)) node.forEach((item) => collectRefs(item, out));
  else if (node && typeof node === "object") {
    for (const [key, value] of Object.entries(node as Json)) {
      if (key === "$ref" && typeof value === "string") out.push(value);
      else collectRefs(value, out);
    }
  }
  return out;
}

describe("OpenAPI document", () => {
  it("is an OpenAPI 3.1 document with info, servers and security schemes", () => {
    assert.match(doc.openapi, /^3\.1\.\d+$/);
    assert.ok(doc.info.title);
    assert.match(doc.info.version, /^\d+\.\d+\.\d+$/);
    assert.deepEqual(doc.servers, [{ url: "https://api.example.test", description: doc.servers[0]?.description }]);
    const headerNames = Object.values(doc.components.securitySchemes).map((s) => [s.type, s.in, s.name]);
    assert.deepEqual(headerNames, [
      ["apiKey", "header", "X-Service-Key-Id"],
      ["apiKey", "header", "X-Service-Timestamp"],
      ["apiKey", "header", "X-Service-Nonce"],
      ["apiKey", "header", "X-Service-Signature"],
    ]);
    assert.equal(doc.security.length, 1, "one requirement object: all four headers together");
    assert.deepEqual(Object.keys(doc.security[0] ?? {}), Object.keys(doc.components.securitySchemes));
  });

  it("has an operation for every contract, with unique operationIds", () => {
    for (const contract of partnerContracts) {
      const op = doc.paths[contract.path]?.[contract.method.toLowerCase()] as Json | undefined;
      assert.ok(op, `${contract.method} ${contract.path} is documented`);
      assert.equal(op.operationId, contract.operationId);
      assert.deepEqual(op["x-scopes"], [...contract.scopes]);
      assert.equal(op["x-rate-limit-class"], contract.rateClass);
      assert.ok(Array.isArray(op.tags) && op.tags.length > 0);
      assert.ok(typeof op.summary === "string" && op.summary.length > 0);
    }
    const ids = operations().map(({ op }) => op.operationId);
    assert.equal(new Set(ids).size, ids.length, `duplicate operationIds in ${ids.join(", ")}`);
    assert.ok(ids.includes("getOpenApiDocument"), "the document describes its own endpoint");
  });

  it("gives every signed operation a 401 and every error response the shared Error schema", () => {
    for (const { path: p, method, op } of operations()) {
      const responses = op.responses as Record<string, Json>;
      const signed = !(Array.isArray(op.security) && op.security.length === 0);
      if (signed) {
        assert.ok(responses["401"], `${method} ${p} documents 401`);
        for (const status of ["403", "429", "500"]) assert.ok(responses[status], `${method} ${p} documents ${status}`);
      }
      for (const [status, response] of Object.entries(responses)) {
        const schema = ((response.content as Json)["application/json"] as Json).schema as Json;
        if (Number(status) >= 400) assert.deepEqual(schema, { $ref: "#/components/schemas/Error" }, `${method} ${p} ${status}`);
        else assert.ok(schema, `${method} ${p} ${status} has a schema`);
        assert.ok((response.headers as Json)["X-Request-Id"], `${method} ${p} ${status} documents X-Request-Id`);
      }
      if (signed) {
        const ok = Object.entries(responses).find(([status]) => Number(status) < 300)?.[1];
        assert.ok(ok, `${method} ${p} documents its success`);
        for (const header of ["RateLimit-Limit", "RateLimit-Remaining", "RateLimit-Reset"]) {
          assert.ok((ok.headers as Json)[header], `${method} ${p} success documents ${header}`);
        }
        assert.ok((responses["429"]?.headers as Json)["Retry-After"]);
      }
    }
  });

  it("resolves every $ref and keeps no JSON Schema leftovers", () => {
    const refs = collectRefs(doc);
    assert.ok(refs.includes("#/components/schemas/Error"));
    for (const ref of refs) assert.ok(resolvePointer(doc, ref) !== undefined, `${ref} resolves`);
    const text = JSON.stringify(doc);
    assert.ok(!text.includes('"$schema"'), "no per-schema dialect");
    assert.ok(!text.includes("#/$defs/"), "no dangling $defs refs");
    const error = doc.components.schemas.Error as Json;
    const inner = ((error.properties as Json).error as Json).properties as Json;
    assert.deepEqual(Object.keys(inner).sort(), ["code", "details", "message", "request_id"]);
  });

  it("declares every path template variable as a required path parameter", () => {
    for (const { path: p, method, op } of operations()) {
      const names = [...p.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
      const params = (op.parameters ?? []) as Json[];
      for (const name of names) {
        const param = params.find((x) => x.name === name && x.in === "path");
        assert.ok(param, `${method} ${p} declares path parameter ${name}`);
        assert.equal(param.required, true);
      }
      for (const param of params.filter((x) => x.in === "path")) assert.ok(names.includes(param.name as string));
    }
  });

  it("documents discovery inputs as sent and money as integers", () => {
    const search = doc.paths["/api/partner/v1/domains/search"]?.get as Json;
    const params = search.parameters as Json[];
    const q = params.find((x) => x.name === "q");
    assert.equal(q?.required, true);
    assert.deepEqual(q?.schema, { type: "string", minLength: 1, maxLength: 200 });
    const limit = params.find((x) => x.name === "limit");
    assert.equal(limit?.required, false);
    assert.equal((limit?.schema as Json).maximum, 5);
    const pricing = doc.paths["/api/partner/v1/pricing"]?.get as Json;
    const ok = (pricing.responses as Record<string, Json>)["200"] as Json;
    const schema = ((ok.content as Json)["application/json"] as Json).schema as Json;
    assert.equal(((schema.properties as Json).sale_price_cents as Json).type, "integer");
    assert.ok((pricing.responses as Json)["404"], "pricing documents 404");
    assert.ok(!(doc.paths["/api/partner/v1/availability"]?.get as Json as { responses: Json }).responses["404"], "availability never 404s");
  });

  it("explains the signing scheme with a canonical string example that the real signer produces", () => {
    const d = doc.info.description;
    for (const needle of ["pk_sandbox_", "pk_live_", "300 seconds", "600 seconds", "RateLimit-Remaining", "Retry-After", "next_cursor", "missing_credentials", "encodeURIComponent"]) {
      assert.ok(d.includes(needle), `description mentions ${needle}`);
    }
    const example = /```\n(GET\n[^`]+)\n```/.exec(d)?.[1];
    assert.ok(example, "has the example block");
    const expected = canonicalString({
      method: "GET",
      path: "/api/partner/v1/domains/search",
      query: "?q=pizza%20shop&limit=3",
      timestamp: "1767225600",
      nonce: "6f1c0a52-3b7e-4d7e-9a51-2d0c8f1e9b44",
      bodySha256: EMPTY_BODY_SHA256,
    });
    assert.equal(example, expected);
  });

  it("covers every signed route file under app/api/partner", () => {
    const root = path.join(process.cwd(), "app", "api", "partner");
    const files: string[] = [];
    const walk = (dir: string) => {
      for (const entry of readdirSync(dir)) {
        const full = path.join(dir, entry);
        if (statSync(full).isDirectory()) walk(full);
        else if (entry === "route.ts") files.push(full);
      }
    };
    walk(root);
    let signed = 0;
    for (const file of files) {
      const rel = path.relative(path.join(process.cwd(), "app"), path.dirname(file)).split(path.sep);
      if (rel.some((segment) => segment.startsWith("[..."))) continue; // catch-all 404
      const urlPath = `/${rel.map((segment) => segment.replace(/^\[(.+)\]$/, "{$1}")).join("/")}`;
      const source = readFileSync(file, "utf8");
      for (const match of source.matchAll(/export const (GET|POST|PUT|PATCH|DELETE) = partnerRoute\(/g)) {
        signed++;
        const method = match[1];
        assert.ok(
          partnerContracts.some((c) => c.method === method && c.path === urlPath),
          `${method} ${urlPath} (${path.relative(process.cwd(), file)}) has a contract in partnerContracts`,
        );
      }
    }
    assert.ok(signed >= 4);
  });

  it("is built once per process and served publicly with a cache header", async () => {
    assert.equal(getOpenApiDocument(), getOpenApiDocument());
    const response = await openapiRoute.GET(new Request(`http://localhost:3000${OPENAPI_PATH}`));
    assert.equal(response.status, 200);
    assert.equal(response.headers.get("cache-control"), "public, max-age=300");
    assert.match(response.headers.get("content-type") ?? "", /^application\/json/);
    assert.ok(response.headers.get("x-request-id"));
    const body = (await response.json()) as Json;
    assert.equal(body.openapi, doc.openapi);
    assert.deepEqual(Object.keys(body.paths as Json).sort(), Object.keys(doc.paths).sort());
    const post = await openapiRoute.POST(new Request(`http://localhost:3000${OPENAPI_PATH}`, { method: "POST" }), {
      params: Promise.resolve({}),
    });
    assert.equal(post.status, 405);
  });
});
