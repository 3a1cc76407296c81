/**
 * The dependency rules of docs/architecture.md hold for every source file, and the checker
 * really catches what breaks them: it is fed one violating file per rule and must name each.
 */
import { deepStrictEqual, equal, ok } from "node:assert/strict";
import { dirname, resolve } from "node:path";
import {
  ENVIRONMENT_READERS,
  importCycles,
  repositorySources,
  ruleOf,
  type SourceFile,
  specifiersOf,
  TIMER_USERS,
  usesOutside,
  violations,
} from "./support/architecture.ts";

const ROOT = resolve(dirname(new URL(import.meta.url).pathname), "..");

Deno.test("every import follows the dependency direction", () => {
  const files = repositorySources(ROOT);
  ok(files.length > 100, `${files.length} files read`);
  ok(files.some((f) => f.path === "main.ts") && files.some((f) => f.path === "config.ts"));
  equal(violations(files).join("\n"), "");
});

Deno.test("no import cycle anywhere, type-only imports included; the finder names one it is fed", () => {
  deepStrictEqual(importCycles(repositorySources(ROOT)), []);
  deepStrictEqual(
    importCycles([
      { path: "app/a.ts", text: `import type { B } from "./b.ts";` },
      { path: "app/b.ts", text: `import { c } from "./c.ts";` },
      { path: "app/c.ts", text: `export { a } from "./a.ts";` },
      { path: "app/d.ts", text: `import { a } from "./a.ts";` },
      { path: "app/e.ts", text: `const x = await import("./e.ts");` },
    ]),
    [["app/a.ts", "app/b.ts", "app/c.ts"], ["app/e.ts"]],
  );
});

Deno.test("Deno.env is read only by the modules named for it, and timers started only where listed", () => {
  const files = repositorySources(ROOT);
  deepStrictEqual(usesOutside(files, /\bDeno\.env\./, ENVIRONMENT_READERS), []);
  deepStrictEqual(usesOutside(files, /\bset(?:Timeout|Interval)\s*\(/, TIMER_USERS), []);
  // Each listed file still does what it is listed for (a stale entry is removed, not kept).
  for (const path of Object.keys(ENVIRONMENT_READERS)) {
    ok(files.find((f) => f.path === path)?.text.includes("Deno.env."), path);
  }
  for (const path of Object.keys(TIMER_USERS)) {
    ok(/\bset(?:Timeout|Interval)\s*\(/.test(files.find((f) => f.path === path)?.text ?? ""), path);
  }
  // The check catches a new reader.
  deepStrictEqual(
    usesOutside(
      [{ path: "app/x.ts", text: "Deno.env.get('X')" }],
      /\bDeno\.env\./,
      ENVIRONMENT_READERS,
    ),
    ["app/x.ts"],
  );
});

/** One file per rule, each breaking it once. */
const VIOLATING: readonly [string, SourceFile][] = [
  ["domain imports store", { path: "domain/a.ts", text: `import { x } from "../store/mod.ts";` }],
  ["domain imports a package", { path: "domain/b.ts", text: `import { z } from "zod";` }],
  ["a side-effect import", { path: "domain/c.ts", text: `import "../ingest/mod.ts";\n` }],
  [
    "ingest imports store (type only)",
    { path: "ingest/d.ts", text: `import type { Db } from "../store/sqlite/db.ts";` },
  ],
  ["routes imports store", { path: "routes/e.ts", text: `import { a } from "../store/mod.ts";` }],
  [
    "routes imports ingest dynamically",
    { path: "routes/f.ts", text: `const m = await import("../ingest/mod.ts");` },
  ],
  ["app imports store", { path: "app/g.ts", text: `import { openStore } from "../store/mod.ts";` }],
  ["app re-exports routes", { path: "app/h.ts", text: `export { x } from "../routes/mod.ts";` }],
  ["an adapter logs", {
    path: "ingest/adapters/i.ts",
    text: `import { log } from "../../log.ts";`,
  }],
  [
    "an adapter reads the clock",
    { path: "ingest/adapters/j.ts", text: `export const at = () => Date.now();` },
  ],
  [
    "an adapter fetches",
    { path: "ingest/adapters/k.ts", text: `export const get = (u: string) => fetch(u);` },
  ],
  [
    "an adapter reaches the poller's HTTP",
    { path: "ingest/adapters/l.ts", text: `import { politeFetch } from "../http.ts";` },
  ],
  [
    "the status CLI imports app",
    { path: "cli/status/m.ts", text: `import { listServices } from "../../app/mod.ts";` },
  ],
  ["config.ts imports store", { path: "config.ts", text: `import { x } from "./store/mod.ts";` }],
  ["log.ts imports domain", { path: "log.ts", text: `import { x } from "./domain/mod.ts";` }],
  ["a file no area covers", { path: "newfolder/n.ts", text: `export const n = 1;` }],
  ["store imports hono", { path: "store/o.ts", text: `import { Hono } from "hono";` }],
  [
    "a multi-line import",
    {
      path: "routes/p.ts",
      text: `import {\n  one,\n  two,\n} from "../store/sqlite/mod.ts";\n`,
    },
  ],
  ["a path outside the repository", { path: "app/q.ts", text: `import { x } from "../../x.ts";` }],
  [
    "one engine imports the other",
    { path: "store/sqlite/r.ts", text: `import { x } from "../postgres/db.ts";` },
  ],
  ["domain reads the clock", { path: "domain/s.ts", text: `export const now = () => Date.now();` }],
  ["domain starts a timer", { path: "domain/t.ts", text: `setTimeout(() => {}, 1);` }],
  ["domain reads the runtime", { path: "domain/u.ts", text: `export const h = Deno.hostname;` }],
];

Deno.test("the checker names every violating import it is fed", () => {
  for (const [label, file] of VIOLATING) {
    const found = violations([file]);
    equal(found.length, 1, `${label}: ${found.join("; ") || "not caught"}`);
    ok(found[0]!.startsWith(file.path), label);
  }
  equal(violations(VIOLATING.map(([, f]) => f)).length, VIOLATING.length);
});

Deno.test("the checker accepts what the rules allow", () => {
  const allowed: SourceFile[] = [
    {
      path: "routes/ok.ts",
      text: `import { getService } from "../app/mod.ts";\nimport { Hono } from "hono";`,
    },
    {
      path: "app/ok.ts",
      text: `import type { Store } from "../domain/mod.ts";\nimport { z } from "zod";`,
    },
    { path: "ingest/ok.ts", text: `import { ADAPTERS } from "./adapters/mod.ts";` },
    { path: "ingest/adapters/ok.ts", text: `import { z } from "zod";\nconst d = new Date(0);` },
    { path: "main.ts", text: `const { runAdmin } = await import("./cli/admin/mod.ts");` },
  ];
  deepStrictEqual(violations(allowed), []);
});

Deno.test("imports are read in every form", () => {
  deepStrictEqual(
    specifiersOf(
      `import a from "a";\nimport type { B } from "b";\nexport * from "c";\nexport { d } from "d";\n` +
        `import "e";\nconst f = await import("f");\nimport {\n  g,\n} from "g";`,
    ).sort(),
    ["a", "b", "c", "d", "e", "f", "g"],
  );
  equal(ruleOf("ingest/adapters/aws.ts")?.area, "ingest/adapters/");
  equal(ruleOf("ingest/poller.ts")?.area, "ingest/");
});
