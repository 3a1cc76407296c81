/**
 * Conformance: `store.health` (what /healthz reads).
 * @module
 */
import { deepStrictEqual } from "node:assert/strict";
import type { Case } from "./_support.ts";
import {
  component,
  DAY,
  incident,
  MIN,
  read,
  snapshot,
  T,
  vendor,
  withVendors,
} from "./_support.ts";

export const healthCases: Case[] = [
  {
    name: "health.facts counts rows, polls per outcome since an instant, and reading states",
    async run(store) {
      const ids = await withVendors(store, [vendor("a"), vendor("b"), vendor("c")]);
      await read(store, ids.a!, snapshot("OPERATIONAL", [component("x"), component("y")]), T - DAY);
      await read(store, ids.a!, snapshot("OPERATIONAL", [component("x")], [incident("i", T)]), T);
      await store.polls.recordFailure(ids.b!, {
        at: T,
        latencyMs: 1,
        httpStatus: 503,
        nextPollAt: T + MIN,
        deadlineAt: T + MIN,
        outcome: "http_status",
        detail: "HTTP 503",
        stale: false,
        platformMiss: false,
      });
      deepStrictEqual(await store.health.facts(T - MIN, T - 2 * DAY), {
        counts: {
          services: 3,
          components: 1,
          openIncidents: 1,
          transitions: 4,
          lastCheckedAt: T,
        },
        outcomes: { http_status: 1, ok: 1 },
        readingStates: { fresh: 1, stale: 0, failing: 1, unsupported: 0, never_read: 1 },
      });
    },
  },
];
