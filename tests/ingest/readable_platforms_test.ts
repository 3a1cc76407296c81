import { equal } from "node:assert/strict";
import { isMachineReadable, PLATFORMS } from "../../domain/mod.ts";
import { ADAPTERS } from "../../ingest/mod.ts";

// domain/reading.ts decides which vendors read "unsupported" without knowing the adapters.
Deno.test("every machine-readable platform has an adapter, and only those", () => {
  for (const p of PLATFORMS) equal(ADAPTERS[p] !== undefined, isMachineReadable(p), p);
});
