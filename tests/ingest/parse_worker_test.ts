import { deepStrictEqual, equal, ok } from "node:assert/strict";
import { serviceStatus } from "../../domain/mod.ts";
import { PayloadError, UndecodableError } from "../../ingest/adapters/adapter.ts";
import { statuspage } from "../../ingest/adapters/statuspage.ts";
import { createReadingParser, OFF_THREAD_BYTES, parseHere } from "../../ingest/parse_worker.ts";

const ctx = { pageUrl: new URL("https://status.example.com"), fetchedAt: Date.UTC(2026, 10, 2) };

/** A Statuspage summary with `n` components (the last one degraded) and an unknown value. */
function bigSummary(n: number): string {
  return JSON.stringify({
    page: {
      id: "p",
      name: "Big",
      url: "https://status.example.com",
      updated_at: "2026-11-01T00:00:00Z",
    },
    status: { indicator: "minor", description: "Minor" },
    components: Array.from({ length: n }, (_, i) => ({
      id: `c${i}`,
      name: `Component ${i} ${"x".repeat(150)}`,
      status: i === n - 1 ? "degraded_performance" : i === 0 ? "wobbly" : "operational",
      group: false,
      group_id: null,
    })),
    incidents: [],
    scheduled_maintenances: [],
  });
}

Deno.test("a large body is read on the parse worker exactly as it would be here", async () => {
  const body = bigSummary(3000);
  ok(body.length >= OFF_THREAD_BYTES);
  const parser = createReadingParser();
  try {
    const there = await parser.parse("statuspage", statuspage, body, ctx);
    equal(parser.offThread, 1);
    const here = parseHere(statuspage, body, ctx);
    deepStrictEqual(there, here);
    equal(serviceStatus(there.snapshot!), "DEGRADED_PERFORMANCE");
    deepStrictEqual(there.unknown, [["component.status", "wobbly"]]);
    ok(there.dropped.length > 0, "components beyond the reading limit are noted");
  } finally {
    parser.close();
  }
});

Deno.test("errors from the parse worker keep their kind, path and message", async () => {
  const parser = createReadingParser();
  try {
    const html = `<!DOCTYPE html><html><body>${"down ".repeat(OFF_THREAD_BYTES / 4)}</body></html>`;
    const notJson = await parser.parse("statuspage", statuspage, html, ctx);
    ok(notJson.error instanceof UndecodableError);
    equal(notJson.snapshot, null);
    const wrong = JSON.stringify({ page: { name: "x" }, components: "x".repeat(OFF_THREAD_BYTES) });
    const shape = await parser.parse("statuspage", statuspage, wrong, ctx);
    ok(shape.error instanceof PayloadError && !(shape.error instanceof UndecodableError));
    const local = parseHere(statuspage, wrong, ctx).error as PayloadError;
    equal((shape.error as PayloadError).path, local.path);
    equal((shape.error as Error).message, local.message);
  } finally {
    parser.close();
  }
});

Deno.test("small bodies and adapters not in the registry are read on the event loop", async () => {
  const parser = createReadingParser();
  try {
    const custom = { ...statuspage, parse: statuspage.parse.bind(statuspage) };
    const out = await parser.parse("statuspage", custom, bigSummary(3000), ctx);
    equal(serviceStatus(out.snapshot!), "DEGRADED_PERFORMANCE");
    const small = await parser.parse("statuspage", statuspage, bigSummary(3), ctx);
    equal(serviceStatus(small.snapshot!), "DEGRADED_PERFORMANCE");
    equal(parser.offThread, 0);
  } finally {
    parser.close();
  }
});
