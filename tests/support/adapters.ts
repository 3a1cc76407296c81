/**
 * Shared helpers of the adapter tests: recorded payloads and a ParseContext that collects the
 * unmapped values an adapter reports.
 * @module
 */
import type { ParseContext } from "../../ingest/adapters/adapter.ts";

/** The text of `tests/fixtures/<folder>/<name>`, exactly as recorded. */
export function fixture(folder: string, name: string): string {
  return Deno.readTextFileSync(new URL(`../fixtures/${folder}/${name}`, import.meta.url));
}

/**
 * A context for `page` fetched at `fetchedAt` (ISO); `unknown` collects reported values and
 * `dropped` the notes on items left out (`path: reason`, as the poller keeps them).
 */
export function parseContext(
  page: string,
  fetchedAt: string,
): { ctx: ParseContext; unknown: [string, string][]; dropped: string[] } {
  const unknown: [string, string][] = [];
  const dropped: string[] = [];
  const ctx: ParseContext = {
    pageUrl: new URL(page),
    fetchedAt: Date.parse(fetchedAt),
    unknownValue: (field, value) => unknown.push([field, value]),
    dropped: (path, reason) => dropped.push(`${path}: ${reason}`),
  };
  return { ctx, unknown, dropped };
}

/** The recorded JSON payload `tests/fixtures/<folder>/<name>`, parsed (to modify a copy). */
// deno-lint-ignore no-explicit-any
export function jsonFixture(folder: string, name: string): Record<string, any> {
  return JSON.parse(fixture(folder, name));
}
