/**
 * The README and docs/ show commands a reader pastes: every vendor slug they use in an API path
 * or a `status` command must be in the built-in catalog (`githb` is the one deliberate typo,
 * there to show the suggestions).
 */
import { deepStrictEqual, ok } from "node:assert/strict";
import catalog from "../ingest/catalog.json" with { type: "json" };

const ROOT = new URL("../", import.meta.url);
const TYPOS = new Set(["githb"]);
const COMMANDS = new Set(["status", "check", "gate", "incidents", "uptime", "help"]);
const VALUED = new Set([
  "--fail-on",
  "--fial-on",
  "--days",
  "--api",
  "--limit",
  "--service",
  "--timeout",
  "--within",
]);

function docs(): [string, string][] {
  const files = [
    "README.md",
    ...[...Deno.readDirSync(new URL("docs/", ROOT))]
      .filter((e) => e.name.endsWith(".md")).map((e) => `docs/${e.name}`),
  ];
  return files.map((f) => [f, Deno.readTextFileSync(new URL(f, ROOT))]);
}

/** Slugs used in `/api/…/services/<slug>` paths and in `deno task cli …` / `status.js …` runs. */
function slugsIn(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(/\/api\/(?:user\/)?services\/([a-z0-9][a-z0-9-]*)/g)) {
    out.push(m[1]!);
  }
  for (const line of text.split("\n")) {
    const m = /(?:deno task cli|status\.js(?: --api \S+)?)\s+(.*)$/.exec(line);
    if (!m) continue;
    // The command's own words: up to a comment or the next shell operator.
    const words = m[1]!.split(/#|&&|\|\||[|;&>]/)[0]!.trim().split(/\s+/).filter(Boolean);
    for (let i = 0; i < words.length; i++) {
      const w = words[i]!;
      if (VALUED.has(w)) i++;
      else if (!w.startsWith("-") && !COMMANDS.has(w) && /^[a-z0-9][a-z0-9-]*$/.test(w)) {
        out.push(w);
      }
    }
  }
  return out;
}

Deno.test("every vendor slug the README and docs use is in the built-in catalog", () => {
  const known = new Set((catalog as { slug: string }[]).map((v) => v.slug));
  const unknown: string[] = [];
  let seen = 0;
  for (const [file, text] of docs()) {
    for (const slug of slugsIn(text)) {
      seen++;
      if (!known.has(slug) && !TYPOS.has(slug)) unknown.push(`${file}: ${slug}`);
    }
  }
  ok(seen >= 10, `found ${seen} slugs`);
  deepStrictEqual(unknown, []);
});
