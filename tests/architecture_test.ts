/**
 * Fails when an import breaks the dependency rules of docs/architecture.md:
 * domain imports nothing of ours; store and ingest never import each other; routes never touch
 * store/ or ingest/; the status CLI talks HTTP only.
 */
import { equal } from "node:assert/strict";
import { dirname, join, relative, resolve } from "node:path";
import { readdirSync, readFileSync, statSync } from "node:fs";

const ROOT = resolve(dirname(new URL(import.meta.url).pathname), "..");

/** Top-level areas each area may import (besides itself and npm/node packages). */
const ALLOWED: Record<string, string[]> = {
  "domain": [],
  "store": ["domain", "log.ts"],
  "ingest": ["domain", "log.ts", "config.ts"],
  "app": ["domain", "store", "log.ts"],
  "routes": ["domain", "app", "log.ts"],
  "cli/status": ["domain"],
  "cli/admin": ["domain", "app", "store", "config.ts", "log.ts"],
};
/** Packages an area must not import. */
const BANNED_PACKAGES: Record<string, RegExp> = {
  "domain": /^(npm:|hono|zod|@|node:sqlite)/,
  "store": /^(hono|@hono)/,
  "app": /^(hono|@hono)/,
};

function areaOf(rel: string): string | null {
  if (rel.startsWith("cli/status/")) return "cli/status";
  if (rel.startsWith("cli/admin/")) return "cli/admin";
  const top = rel.split("/")[0]!;
  return top in ALLOWED ? top : null;
}

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) out.push(...sourceFiles(full));
    else if (/\.tsx?$/.test(name)) out.push(full);
  }
  return out;
}

function importsOf(text: string): string[] {
  const specs: string[] = [];
  const re = /(?:import|export)\s[^'"]*?from\s*["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)/g;
  for (const m of text.matchAll(re)) specs.push((m[1] ?? m[2])!);
  return specs;
}

Deno.test("every import follows the dependency direction", () => {
  const problems: string[] = [];
  for (const area of Object.keys(ALLOWED)) {
    const dir = join(ROOT, area);
    let files: string[];
    try {
      files = sourceFiles(dir);
    } catch {
      continue;
    }
    for (const file of files) {
      const rel = relative(ROOT, file);
      const from = areaOf(rel)!;
      for (const spec of importsOf(readFileSync(file, "utf8"))) {
        if (spec.startsWith(".")) {
          const target = relative(ROOT, resolve(dirname(file), spec));
          const to = areaOf(target) ?? target;
          if (to !== from && !ALLOWED[from]!.includes(to)) {
            problems.push(`${rel} imports ${spec} (${from} → ${to})`);
          }
        } else if (BANNED_PACKAGES[from]?.test(spec)) {
          problems.push(`${rel} imports package ${spec}`);
        }
      }
    }
  }
  equal(problems.join("\n"), "");
});
