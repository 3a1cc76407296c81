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
import { accountDocCases } from "./account_docs.ts";
import { alertIndexCases } from "./alert_index.ts";
import { attemptCases } from "./attempts.ts";
import { monitorCases } from "./monitors.ts";
import { boardCases } from "./boards.ts";
import { idempotencyCases } from "./idempotency.ts";
import { deliveryCases } from "./deliveries.ts";
import { mailCases } from "./mail.ts";
import { addedVendorCases, candidateCases } from "./added_vendors.ts";
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
import { warningCases } from "./warnings.ts";
import type { Case } from "./_support.ts";

/** Every case, by noun. */
export const CASES: readonly Case[] = [
  ...catalogCases,
  ...addedVendorCases,
  ...candidateCases,
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
  ...accountDocCases,
  ...monitorCases,
  ...boardCases,
  ...idempotencyCases,
  ...deliveryCases,
  ...mailCases,
  ...warningCases,
];

/** Options of {@link storeConformance}. */
export interface ConformanceOptions {
  /** Skip every case (no server for this engine here). */
  readonly ignore?: boolean;
  /** Leave Deno's resource and op sanitizers off (a pool's sockets outlive one case). */
  readonly pooled?: boolean;
}

/** The port's methods, as `noun.method`, read off a store (both engines have the same). */
function portMethods(store: Store): string[] {
  return Object.entries(store).flatMap(([noun, value]) =>
    value !== null && typeof value === "object"
      ? Object.keys(value).map((method) => `${noun}.${method}`)
      : []
  );
}

/** `store` recording into `called` each port method a case calls. */
function recording(store: Store, called: Set<string>): Store {
  const out: Record<string, unknown> = {};
  for (const [noun, value] of Object.entries(store)) {
    if (value === null || typeof value !== "object") {
      out[noun] = typeof value === "function" ? value.bind(store) : value;
      continue;
    }
    out[noun] = Object.fromEntries(
      Object.entries(value as Record<string, unknown>).map(([method, fn]) => [
        method,
        typeof fn === "function"
          ? (...args: unknown[]) => {
            called.add(`${noun}.${method}`);
            return fn.apply(value, args);
          }
          : fn,
      ]),
    );
  }
  return out as unknown as Store;
}

/**
 * Registers every case as a `Deno.test` named `store conformance (<engine>): <case>`, each on a
 * fresh store from `open` (closed after), and last a test that fails when a method of the port
 * was called by no case: the suite is the port's definition, so every method needs a case.
 */
export function storeConformance(
  engine: string,
  open: () => Promise<Store>,
  options: ConformanceOptions = {},
): void {
  const called = new Set<string>();
  let methods: string[] = [];
  const sanitize = options.pooled ? { sanitizeResources: false, sanitizeOps: false } : {};
  for (const c of CASES) {
    Deno.test({
      name: `store conformance (${engine}): ${c.name}`,
      ignore: options.ignore ?? false,
      ...sanitize,
      async fn() {
        const store = await open();
        if (methods.length === 0) methods = portMethods(store);
        try {
          await c.run(recording(store, called));
        } finally {
          await store.close();
        }
      },
    });
  }
  Deno.test({
    name: `store conformance (${engine}): every method of the port is exercised by a case`,
    ignore: options.ignore ?? false,
    fn() {
      const never = methods.filter((m) => !called.has(m));
      if (methods.length === 0) throw new Error("no case ran");
      if (never.length) {
        throw new Error(`port methods no conformance case calls: ${never.join(", ")}`);
      }
    },
  });
}
