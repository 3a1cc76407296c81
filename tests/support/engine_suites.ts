/**
 * Lists the test files the PostgreSQL pass of `.ci/test.sh` runs: every `*_test.ts` under the
 * given folders (or given itself) whose relative imports reach the test store
 * (`tests/support/store.ts`, which gives a PostgreSQL store under `STATUSD_TEST_ENGINE=postgres`).
 * A file that never opens a store would only repeat its SQLite run.
 *
 *     deno run --allow-read tests/support/engine_suites.ts tests/app tests/cli …
 * @module
 */
import { dirname, join, relative, resolve } from "node:path";

const STORE = resolve(dirname(new URL(import.meta.url).pathname), "store.ts");
const IMPORT = /\bfrom\s*["'](\.{1,2}\/[^"']+)["']|\bimport\(\s*["'](\.{1,2}\/[^"']+)["']/g;

/** True when `file`'s relative imports lead to the test store. */
function reachesStore(file: string, known: Map<string, boolean>, path: Set<string>): boolean {
  if (file === STORE) return true;
  const seen = known.get(file);
  if (seen !== undefined) return seen;
  if (path.has(file)) return false;
  path.add(file);
  let text = "";
  try {
    text = Deno.readTextFileSync(file);
  } catch {
    return false;
  }
  let reaches = false;
  for (const m of text.matchAll(IMPORT)) {
    const spec = (m[1] ?? m[2])!.split("?")[0]!;
    if (reachesStore(resolve(dirname(file), spec), known, path)) {
      reaches = true;
      break;
    }
  }
  path.delete(file);
  known.set(file, reaches);
  return reaches;
}

function* testFiles(dir: string): Generator<string> {
  if (Deno.statSync(dir).isFile) {
    yield dir;
    return;
  }
  for (const entry of [...Deno.readDirSync(dir)].sort((a, b) => a.name.localeCompare(b.name))) {
    const path = join(dir, entry.name);
    if (entry.isDirectory) yield* testFiles(path);
    else if (entry.name.endsWith("_test.ts")) yield path;
  }
}

/** The test files under (or among) `dirs` whose tests open the test store. */
export function engineSuites(dirs: readonly string[]): string[] {
  const known = new Map<string, boolean>();
  return dirs.flatMap((dir) => [...testFiles(dir)])
    .filter((file) => reachesStore(resolve(file), known, new Set()))
    .map((file) => relative(Deno.cwd(), resolve(file)));
}

if (import.meta.main) {
  for (const file of engineSuites(Deno.args)) console.log(file);
}
