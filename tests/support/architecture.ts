/**
 * The dependency rules of docs/architecture.md as an allow-list, and the checker that applies
 * them to source files. Every source file belongs to exactly one area (the most specific that
 * contains it; a file no area covers is itself a violation); each area lists the areas of ours
 * and the packages it may import, and code it must not contain. Imports are read in every form:
 * `import … from`, `import type`, `export … from`, side-effect `import "…"` and dynamic
 * `import("…")`, across lines.
 * @module
 */
import { dirname, join, normalize, relative } from "node:path";

/** One area's allowances. */
export interface AreaRule {
  /** A folder (`"ingest/adapters/"`, trailing slash) or a root file (`"config.ts"`). */
  readonly area: string;
  /** Areas of ours it may import besides itself (folders without the slash, or root files). */
  readonly mayImport: readonly string[];
  /** Packages it may import: exact specifiers, or prefixes ending in "/". */
  readonly packages: readonly string[];
  /** Code it must not contain, with the reason. */
  readonly forbidden?: readonly { readonly pattern: RegExp; readonly why: string }[];
}

/** Code no pure area may contain: I/O, the runtime, clocks, timers, logging. */
const IMPURE: NonNullable<AreaRule["forbidden"]> = [
  { pattern: /\bfetch\s*\(/, why: "I/O" },
  { pattern: /\bDeno\./, why: "I/O or the runtime" },
  { pattern: /\bDate\.now\s*\(|new Date\(\s*\)|performance\.now\s*\(/, why: "a clock" },
  { pattern: /\bconsole\./, why: "logging" },
  { pattern: /\bset(?:Timeout|Interval)\s*\(/, why: "timers" },
];

/** The rules (docs/architecture.md "Folders and dependency direction"). */
export const RULES: readonly AreaRule[] = [
  // General tools with no domain and no dependency (addresses, proxies, dependency files).
  { area: "lib/", mayImport: [], packages: [], forbidden: IMPURE },
  { area: "domain/", mayImport: ["lib"], packages: [], forbidden: IMPURE },
  {
    area: "store/",
    mayImport: ["domain", "lib", "log.ts", "store/sqlite", "store/postgres", "store/shared"],
    packages: ["node:sqlite", "node:path", "node:fs", "postgres"],
  },
  // The store's algorithms, written once: they yield SQL and never reach a driver themselves.
  { area: "store/shared/", mayImport: ["domain", "lib"], packages: [], forbidden: IMPURE },
  // Each engine uses the shared rows and algorithms of store/, never the other engine.
  {
    area: "store/sqlite/",
    mayImport: ["domain", "lib", "log.ts", "store", "store/shared"],
    packages: ["node:sqlite", "node:path", "node:fs"],
  },
  {
    area: "store/postgres/",
    mayImport: ["domain", "lib", "log.ts", "store", "store/shared"],
    packages: ["postgres"],
  },
  {
    area: "ingest/adapters/",
    mayImport: ["domain", "lib"],
    packages: ["zod", "fast-xml-parser"],
    forbidden: [
      { pattern: /\bfetch\s*\(/, why: "I/O (an adapter is a pure function of bytes)" },
      { pattern: /\bDeno\./, why: "I/O or the runtime" },
      { pattern: /\bDate\.now\s*\(|new Date\(\s*\)|performance\.now\s*\(/, why: "a clock" },
      { pattern: /\bconsole\./, why: "logging" },
      { pattern: /\bset(?:Timeout|Interval)\s*\(/, why: "timers" },
    ],
  },
  {
    area: "ingest/",
    mayImport: ["domain", "lib", "ingest/adapters", "ingest/pinned_client.ts", "log.ts"],
    packages: ["zod", "fast-xml-parser", "croner", "node:crypto"],
  },
  {
    area: "outbound/channels/",
    mayImport: ["domain", "lib"],
    packages: ["zod", "standardwebhooks"],
    forbidden: [
      { pattern: /\bfetch\s*\(/, why: "I/O (a channel is a pure renderer)" },
      { pattern: /\bDeno\./, why: "I/O or the runtime" },
      { pattern: /\bDate\.now\s*\(|new Date\(\s*\)|performance\.now\s*\(/, why: "a clock" },
      { pattern: /\bconsole\./, why: "logging" },
      { pattern: /\bset(?:Timeout|Interval)\s*\(/, why: "timers" },
    ],
  },
  {
    area: "ingest/pinned_client.ts",
    mayImport: ["domain", "lib", "ingest/pinned_https.ts"],
    packages: ["node:dns/promises", "node:https"],
  },
  {
    area: "ingest/pinned_https.ts",
    mayImport: ["domain", "lib"],
    packages: [
      "node:https",
      "node:http",
      "node:net",
      "node:stream",
      "node:zlib",
    ],
  },
  {
    area: "outbound/",
    mayImport: ["domain", "lib", "outbound/channels", "ingest/pinned_client.ts", "log.ts"],
    packages: ["zod", "standardwebhooks", "nodemailer", "node:crypto"],
  },
  // What statusd's data looks like outside: shapes and mappers REST, MCP and the CLI share.
  { area: "wire/", mayImport: ["domain", "lib"], packages: ["zod"], forbidden: IMPURE },
  {
    area: "app/",
    mayImport: ["domain", "lib", "outbound/channels", "log.ts"],
    packages: ["zod", "croner", "@oslojs/encoding", "@oslojs/crypto/", "node:crypto"],
  },
  {
    area: "routes/",
    mayImport: ["domain", "lib", "app", "wire", "log.ts"],
    packages: [
      "hono",
      "hono/",
      "@hono/zod-openapi",
      "@asteasolutions/zod-to-openapi",
      "zod",
      "@modelcontextprotocol/sdk/",
      "@oslojs/encoding",
      "@oslojs/crypto/",
      "yaml",
      "node:zlib",
      "ical-generator",
      "feed",
      "badge-maker",
    ],
  },
  { area: "cli/status/", mayImport: ["domain", "lib", "wire"], packages: ["zod"] },
  {
    area: "cli/admin/",
    mayImport: ["domain", "lib", "app", "store", "config.ts", "log.ts", "clock.ts"],
    packages: ["zod", "node:util"],
  },
  {
    area: "scripts/",
    mayImport: ["domain", "lib", "ingest"],
    packages: ["zod", "node:zlib", "node:path", "@oslojs/encoding", "@oslojs/crypto/"],
  },
  {
    area: "main.ts",
    mayImport: [
      "clock.ts",
      "app",
      "config.ts",
      "domain",
      "lib",
      "ingest",
      "outbound",
      "outbound/channels",
      "log.ts",
      "routes",
      "store",
      "cli/admin",
    ],
    packages: [],
  },
  { area: "config.ts", mayImport: ["domain", "lib"], packages: ["zod"] },
  { area: "log.ts", mayImport: [], packages: [] },
  { area: "clock.ts", mayImport: ["domain", "lib"], packages: [] },
];

/** The only files that may read or change `Deno.env`, and why. */
export const ENVIRONMENT_READERS: Readonly<Record<string, string>> = {
  "config.ts": "the server's configuration, read once at start",
  "cli/status/main.ts": "the status CLI's own variables (its argument module parses them)",
  "ingest/pinned_client.ts":
    "hides the proxy variables from the fetch clients it makes (the runtime reads them)",
};

/** The only files that may start timers, and what for. */
export const TIMER_USERS: Readonly<Record<string, string>> = {
  "main.ts": "the shutdown deadline",
  "app/alert_loop.ts": "the evaluator's safety-net round",
  "app/dependency_reader.ts": "the deadline of a dependency-file read",
  "app/key_uses.ts": "flushing key-use writes after the current request",
  "app/retention.ts": "yielding to requests between retention batches",
  "ingest/http.ts": "fetch deadlines",
  "ingest/limiter.ts": "per-host politeness delays",
  "ingest/parse_worker.ts": "the deadline of a parse on the worker",
  "ingest/poll_record.ts": "yielding to requests before writing a large reading",
  "ingest/sight_log.ts": "reading the poller's counters every minute (what statusd sees)",
  "outbound/send_http.ts": "delivery deadlines",
  "outbound/worker.ts": "the delivery worker's idle wait and lease renewal",
  "routes/api/events.ts": "SSE keep-alive comments",
  "routes/web/assets.ts": "the browser script it serves (copy feedback, search debounce)",
  "store/postgres/quiet_writes.ts": "the window in which pulses share one statement",
  "store/postgres/liveness.ts": "the check that this instance's liveness lock is still held",
  "store/sqlite/write_batch.ts": "the group-commit window",
};

/** Files outside `allowed` whose text matches `pattern` (one line each, empty when none). */
export function usesOutside(
  files: readonly SourceFile[],
  pattern: RegExp,
  allowed: Readonly<Record<string, string>>,
): string[] {
  return files.filter((f) => pattern.test(f.text) && !Object.hasOwn(allowed, f.path))
    .map((f) => f.path);
}

/** A source file: its path relative to the repository root, and its text. */
export interface SourceFile {
  readonly path: string;
  readonly text: string;
}

/** The rule of `path` (the most specific area containing it), or null when none covers it. */
export function ruleOf(path: string): AreaRule | null {
  let best: AreaRule | null = null;
  for (const r of RULES) {
    const covers = r.area.endsWith("/") ? path.startsWith(r.area) : path === r.area;
    if (covers && (!best || r.area.length > best.area.length)) best = r;
  }
  return best;
}

/** The name an area is imported by: its folder without the slash, or the root file. */
function nameOf(rule: AreaRule): string {
  return rule.area.replace(/\/$/, "");
}

/** Every module specifier `text` imports, in any form. */
export function specifiersOf(text: string): string[] {
  const found: string[] = [];
  const patterns = [
    /\b(?:import|export)\b(?:\s+type)?[^;'"`]*?\bfrom\s*["']([^"']+)["']/g,
    /^\s*import\s*["']([^"']+)["']/gm,
    /\bimport\s*\(\s*["']([^"']+)["']\s*\)/g,
  ];
  for (const re of patterns) for (const m of text.matchAll(re)) found.push(m[1]!);
  return found;
}

function packageAllowed(spec: string, allowed: readonly string[]): boolean {
  return allowed.some((p) => (p.endsWith("/") ? spec.startsWith(p) : spec === p));
}

/** Every rule `files` break, one line each (empty when none). */
export function violations(files: readonly SourceFile[]): string[] {
  const out: string[] = [];
  for (const file of files) {
    const rule = ruleOf(file.path);
    if (!rule) {
      out.push(`${file.path}: no area covers this file (add a rule before adding code there)`);
      continue;
    }
    const self = nameOf(rule);
    for (const spec of specifiersOf(file.text)) {
      if (spec.startsWith(".")) {
        const target = normalize(join(dirname(file.path), spec));
        if (target.startsWith("..")) {
          out.push(`${file.path} imports ${spec}: outside the repository`);
          continue;
        }
        const to = ruleOf(target);
        const toName = to ? nameOf(to) : target;
        if (toName !== self && !rule.mayImport.includes(toName)) {
          out.push(`${file.path} imports ${spec} (${self} → ${toName})`);
        }
      } else if (!packageAllowed(spec, rule.packages)) {
        out.push(`${file.path} imports package ${spec} (not allowed in ${self})`);
      }
    }
    for (const f of rule.forbidden ?? []) {
      if (f.pattern.test(file.text)) out.push(`${file.path} uses ${f.pattern.source}: ${f.why}`);
    }
  }
  return out;
}

/** Every `.ts`/`.tsx` source file of the repository (tests, benchmarks and tooling aside). */
export function repositorySources(root: string): SourceFile[] {
  const skip = new Set(["tests", "bench", "node_modules", "dist", "coverage", "data", ".tools"]);
  const out: SourceFile[] = [];
  const walk = (dir: string) => {
    for (const entry of Deno.readDirSync(dir)) {
      const full = join(dir, entry.name);
      const rel = relative(root, full);
      if (entry.isDirectory) {
        if (!skip.has(rel) && !entry.name.startsWith(".")) walk(full);
      } else if (/\.tsx?$/.test(entry.name)) {
        out.push({ path: rel, text: Deno.readTextFileSync(full) });
      }
    }
  };
  walk(root);
  return out;
}

/**
 * The import cycles among `files`: each strongly connected group of two or more files (or a file
 * importing itself) through relative imports of any form, type-only ones included; each group's
 * paths sorted, the groups largest first.
 */
export function importCycles(files: readonly SourceFile[]): string[][] {
  const known = new Set(files.map((f) => f.path));
  const edges = new Map<string, string[]>();
  for (const f of files) {
    const to: string[] = [];
    for (const spec of specifiersOf(f.text)) {
      if (!spec.startsWith(".")) continue;
      const target = normalize(join(dirname(f.path), spec));
      if (known.has(target)) to.push(target);
    }
    edges.set(f.path, to);
  }
  // Tarjan's strongly connected components, iteratively.
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const groups: string[][] = [];
  for (const start of edges.keys()) {
    if (index.has(start)) continue;
    const work: [string, number][] = [[start, 0]];
    index.set(start, next);
    low.set(start, next++);
    stack.push(start);
    onStack.add(start);
    while (work.length > 0) {
      const top = work[work.length - 1]!;
      const [v, i] = top;
      const out = edges.get(v)!;
      if (i < out.length) {
        top[1]++;
        const w = out[i]!;
        if (!index.has(w)) {
          index.set(w, next);
          low.set(w, next++);
          stack.push(w);
          onStack.add(w);
          work.push([w, 0]);
        } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
        continue;
      }
      work.pop();
      if (work.length > 0) {
        const parent = work[work.length - 1]![0];
        low.set(parent, Math.min(low.get(parent)!, low.get(v)!));
      }
      if (low.get(v) === index.get(v)) {
        const group: string[] = [];
        let w: string;
        do {
          w = stack.pop()!;
          onStack.delete(w);
          group.push(w);
        } while (w !== v);
        if (group.length > 1 || edges.get(v)!.includes(v)) groups.push(group.sort());
      }
    }
  }
  return groups.sort((a, b) => b.length - a.length || a[0]!.localeCompare(b[0]!));
}
