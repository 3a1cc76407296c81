/**
 * No regular expression in statusd's source can be made to backtrack: every pattern in the
 * server and the CLI (dependency files, vendor payloads, request parameters and headers all
 * pass through them) is checked by recheck, a ReDoS checker, and a vulnerable one fails the
 * test with the attack string recheck found. A `RegExp` built from a value cannot be checked
 * ahead of time, so there must be none.
 */
import { equal, ok } from "node:assert/strict";
import { dirname, resolve } from "node:path";
import { check } from "recheck";
import { regexesOf, repositoryRegexes } from "../support/regexes.ts";

const ROOT = resolve(dirname(new URL(import.meta.url).pathname), "../..");
const SOURCES = [
  "domain",
  "ingest",
  "app",
  "routes",
  "outbound",
  "store",
  "cli",
  "config.ts",
  "main.ts",
  "log.ts",
];

async function verdict(source: string, flags: string): Promise<string | null> {
  let r = await check(source, flags, { timeout: 10_000 });
  // recheck's budget is wall time: on a busy machine a hard pattern may need longer to prove.
  if (r.status === "unknown" && r.error.kind === "timeout") {
    r = await check(source, flags, { timeout: 60_000 });
  }
  if (r.status === "safe") return null;
  if (r.status === "vulnerable") {
    return `vulnerable (${r.complexity.type}), e.g. ${r.attack.pattern.slice(0, 120)}`;
  }
  return `could not be proved safe (${r.status}: ${r.error.kind})`;
}

Deno.test("every regular expression in the source is free of catastrophic backtracking", async () => {
  const found = repositoryRegexes(ROOT, SOURCES);
  ok(found.length > 150, `${found.length} regular expressions found`);
  const verdicts = new Map<string, Promise<string | null>>();
  const problems: string[] = [];
  for (const r of found) {
    if (r.source === null) {
      problems.push(`${r.where}: a RegExp built from a value (write the pattern out)`);
      continue;
    }
    const key = `/${r.source}/${r.flags}`;
    if (!verdicts.has(key)) verdicts.set(key, verdict(r.source, r.flags));
    const v = await verdicts.get(key)!;
    if (v !== null) problems.push(`${r.where}: ${key} is ${v}`);
  }
  equal(problems.join("\n"), "");
});

Deno.test("the scan finds the patterns that once froze the server, and recheck flags them", async () => {
  const found = regexesOf(
    "example.ts",
    String.raw`const goMod = /^\s*module\s+\S+/m;
const tf = new RegExp('^\\s*provider\\s+"([^"]+)"', "gm");
const toml = text.match(/^\[+([^\]]+)\]+$/);
const dynamic = new RegExp(name);
const raw = new RegExp(String . raw` + "`a+b`" + `, "i");`,
  );
  equal(found.length, 5);
  equal(found[3]!.source, null);
  equal(found[4]!.source, "a+b");
  for (const r of found.slice(0, 3)) {
    const v = await verdict(r.source!, r.flags);
    ok(v?.startsWith("vulnerable"), `${r.source}: ${v}`);
  }
  equal(await verdict("^[ \\t]*module[ \\t]+\\S", ""), null);
});
