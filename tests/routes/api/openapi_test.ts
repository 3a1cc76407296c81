import { deepStrictEqual, equal, ok } from "node:assert/strict";
import { Validator } from "@seriousme/openapi-schema-validator";
import { parse } from "yaml";
import { apiRig } from "../../support/api.ts";

interface Operation {
  operationId?: string;
  summary?: string;
  description?: string;
  "x-required-scopes"?: string[];
}

Deno.test("the OpenAPI 3.1 document is valid and describes every public /api route", async () => {
  const r = apiRig();
  try {
    const res = await r.get("/openapi.json");
    equal(res.status, 200);
    ok(res.headers.get("content-type")!.startsWith("application/json"));
    const doc = await res.json();
    equal(doc.openapi, "3.1.0");
    deepStrictEqual(doc.servers, [{
      url: "https://status.example.test",
      description: "This statusd",
    }]);

    const validator = new Validator();
    const result = await validator.validate(doc);
    deepStrictEqual(result.errors ?? [], [], "independent OpenAPI 3.1 schema validation");
    equal(result.valid, true);
    equal(validator.version, "3.1");

    const yamlRes = await r.get("/openapi.yaml");
    ok(yamlRes.headers.get("content-type")!.startsWith("application/yaml"));
    deepStrictEqual(parse(await yamlRes.text()), doc, "YAML and JSON say the same");

    const ops: [string, string, Operation][] = [];
    for (
      const [path, item] of Object.entries(doc.paths as Record<string, Record<string, Operation>>)
    ) {
      for (const [method, op] of Object.entries(item)) ops.push([method, path, op]);
    }
    const ids = ops.map(([, , op]) => op.operationId);
    equal(new Set(ids).size, ids.length, "operationIds are unique");
    for (const [method, path, op] of ops) {
      ok(op.operationId, `${method} ${path} has an operationId`);
      ok(op.summary, `${op.operationId} has a summary`);
      ok((op.description ?? "").length > 60, `${op.operationId} has a useful description`);
      ok(Array.isArray(op["x-required-scopes"]), `${op.operationId} has x-required-scopes`);
    }
    const byId = Object.fromEntries(ops.map(([, , op]) => [op.operationId, op]));
    for (const id of ["listServices", "getService", "listIncidents", "getProvidersOverview"]) {
      deepStrictEqual(byId[id]!["x-required-scopes"], [], id);
    }
    for (const id of ["getServiceHistory", "getServiceUptime"]) {
      deepStrictEqual(byId[id]!["x-required-scopes"], ["status:read"], id);
    }
    ok(byId.getServiceUptime!.description!.includes("PARTIAL_OUTAGE time counts 30 %"));
    ok(doc.components.securitySchemes.apiKey && doc.components.securitySchemes.bearer);
    ok(doc.paths["/api/events"].get.responses["200"].content["text/event-stream"]);

    // Every GET route the app serves under /api (besides internal ones) is documented.
    const documented = new Set(
      ops.map(([method, path]) => `${method.toUpperCase()} ${path.replace(/\{(\w+)\}/g, ":$1")}`),
    );
    const INTERNAL = /^\/api\/mcp(\/|$)/; // the MCP transport (described by /.well-known/mcp.json)
    const served = r.app.routes
      .filter((rt) => rt.path.startsWith("/api/") && rt.method !== "ALL")
      .filter((rt) => !INTERNAL.test(rt.path))
      .map((rt) => `${rt.method} ${rt.path}`);
    ok(served.length >= 7);
    for (const route of served) ok(documented.has(route), `${route} is in the OpenAPI document`);
  } finally {
    await r.close();
  }
});
