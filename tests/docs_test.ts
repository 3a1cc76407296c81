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

/** Top folders of the repository a doc may name a file under. */
const TOP = "app|bench|cli|docs|domain|ingest|lib|outbound|routes|scripts|store|tests|wire|\\.ci";

/**
 * What a text names of the repository: paths (`app/alert_round.ts`, `routes/web/settings_alerts/`)
 * and bare file names (`poll_context.ts`). Globs and placeholders name no one file.
 */
function namesIn(text: string): { paths: string[]; files: string[] } {
  const paths = new Set<string>();
  const files = new Set<string>();
  const path = new RegExp(`(?<![\\w./*-])(?:${TOP})/[\\w./-]*[\\w/]`, "g");
  for (const m of text.matchAll(path)) {
    const next = text[m.index + m[0].length] ?? "";
    if (!/[*{<]/.test(next) && !/\.\.\./.test(m[0])) paths.add(m[0].replace(/\.+$/, ""));
  }
  const file = /(?<![\w./*<>{-])[\w-]+\.(?:ts|tsx)(?![\w*])/g;
  for (const m of text.replaceAll(path, "").matchAll(file)) files.add(m[0]);
  return { paths: [...paths], files: [...files] };
}

/** Names of every source file of the repository (tools and packages left out). */
function fileNames(dir = ROOT, out = new Set<string>()): Set<string> {
  for (const e of Deno.readDirSync(dir)) {
    if (e.name === "node_modules" || e.name.startsWith(".")) continue;
    if (e.isDirectory) fileNames(new URL(`${e.name}/`, dir), out);
    else out.add(e.name);
  }
  return out;
}

/** Files a doc asks the reader to create, not files of the repository. */
const READERS_FILES = new Set(["agent.ts"]);
/** Folders the tests write (ignored by git), which a clean checkout does not have. */
const WRITTEN_BY_TESTS = new Set(["tests/e2e/screenshots/"]);

Deno.test("every file and folder the README and docs name exists", () => {
  const names = fileNames();
  const missing: string[] = [];
  let seen = 0;
  for (const [doc, text] of docs()) {
    const { paths, files } = namesIn(text);
    for (const path of paths) {
      seen++;
      if (WRITTEN_BY_TESTS.has(path)) continue;
      try {
        Deno.statSync(new URL(path, ROOT));
      } catch {
        missing.push(`${doc}: ${path}`);
      }
    }
    for (const file of files) {
      seen++;
      if (!names.has(file) && !READERS_FILES.has(file)) missing.push(`${doc}: ${file}`);
    }
  }
  ok(seen >= 50, `found ${seen} names`);
  deepStrictEqual(missing, []);
});

Deno.test("docs/architecture.md has a row for every store noun and every process main.ts starts", () => {
  const text = Deno.readTextFileSync(new URL("docs/architecture.md", ROOT));
  const port = Deno.readTextFileSync(new URL("domain/store/mod.ts", ROOT));
  const body = /export interface Store \{([\s\S]*?)\n\}/.exec(port)![1]!;
  const nouns = [...body.matchAll(/readonly (\w+): \w+Store;/g)].map((m) => m[1]!);
  ok(nouns.length >= 20, `found ${nouns.length} nouns`);
  const missing = nouns.filter((n) => !new RegExp(`^\\| \`${n}\` +\\|`, "m").test(text));
  deepStrictEqual(missing, []);
  // Each loop main.ts starts, by the file that defines its starter, has a row naming that file.
  const main = Deno.readTextFileSync(new URL("main.ts", ROOT));
  const started = ["ingest/poller.ts", "ingest/sight_log.ts", "ingest/prober.ts"];
  ok(
    /poller\.start\(\)/.test(main) && /sight\.start\(\)/.test(main) &&
      /prober\.start\(\)/.test(main),
  );
  ok(/startAlertEvaluator\(/.test(main) && /deliveries\.start\(\)/.test(main));
  ok(/startRetention\(/.test(main) && /startCandidateChecks\(/.test(main));
  const files = [
    ...started,
    "app/alert_loop.ts",
    "outbound/worker.ts",
    "app/retention.ts",
    "app/candidates.ts",
  ];
  deepStrictEqual(files.filter((f) => !new RegExp(`^\\| [\\w ]+\\| \`${f}\``, "m").test(text)), []);
});
