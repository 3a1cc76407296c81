/**
 * The store conformance suite: the observable behaviour of every method of the store port
 * (domain/store/), which every implementation must pass. Run it for an engine with one line:
 *
 * ```ts
 * storeConformance("sqlite", () => Promise.resolve(openSqliteStore(":memory:")));
 * ```
 *
 * Each case gets a fresh, empty, migrated store from `open` and closes it after. Cases touch
 * nothing but the port, so they read the same on every engine.
 * @module
 */
import type { Store } from "../../../domain/mod.ts";
import { accountCases } from "./accounts.ts";
import { alertIndexCases } from "./alert_index.ts";
import { attemptCases } from "./attempts.ts";
import { monitorCases } from "./monitors.ts";
import { boardCases } from "./boards.ts";
import { idempotencyCases } from "./idempotency.ts";
import { deliveryCases } from "./deliveries.ts";
import { mailCases } from "./mail.ts";
import { catalogCases } from "./catalog.ts";
import { changeCases } from "./changes.ts";
import { healthCases } from "./health.ts";
import { historyCases } from "./history.ts";
import { incidentCases } from "./incidents.ts";
import { keyCases } from "./keys.ts";
import { latencyCases } from "./latency.ts";
import { oauthCases } from "./oauth.ts";
import { pollCases } from "./polls.ts";
import { readingCases } from "./readings.ts";
import { retentionCases } from "./retention.ts";
import { sessionCases } from "./sessions.ts";
import type { Case } from "./_support.ts";

/** Every case, by noun. */
export const CASES: readonly Case[] = [
  ...catalogCases,
  ...readingCases,
  ...pollCases,
  ...incidentCases,
  ...historyCases,
  ...changeCases,
  ...healthCases,
  ...accountCases,
  ...keyCases,
  ...sessionCases,
  ...oauthCases,
  ...retentionCases,
  ...latencyCases,
  ...attemptCases,
  ...alertIndexCases,
  ...monitorCases,
  ...boardCases,
  ...idempotencyCases,
  ...deliveryCases,
  ...mailCases,
];

/** Registers every case as a `Deno.test` named `store conformance (<engine>): <case>`. */
export function storeConformance(engine: string, open: () => Promise<Store>): void {
  for (const c of CASES) {
    Deno.test(`store conformance (${engine}): ${c.name}`, async () => {
      const store = await open();
      try {
        await c.run(store);
      } finally {
        await store.close();
      }
    });
  }
}
