import { deepStrictEqual, ok } from "node:assert/strict";
import { engineSuites } from "../support/engine_suites.ts";

Deno.test("the PostgreSQL pass takes the files that open the test store, and only those", () => {
  const app = engineSuites(["tests/app"]);
  ok(app.includes("tests/app/alert_model_test.ts"), app.join(" "));
  ok(app.includes("tests/app/retention_test.ts"), "reaches the store through a helper");
  // Adapters are pure functions of recorded bytes: nothing to repeat on another engine.
  deepStrictEqual(engineSuites(["tests/ingest/adapters"]), []);
  deepStrictEqual(engineSuites(["tests/routes/history_rewrites_test.ts"]), [
    "tests/routes/history_rewrites_test.ts",
  ]);
});
