/**
 * What a test's poller runs on, said once: the store's poll side, the test's clock, no log, no
 * spacing between requests to one host, and a fixed random source (jitter at its middle), so a
 * round polls every due vendor at once and schedules are exact.
 * @module
 */
import type { Clock, Store } from "../../domain/mod.ts";
import { createPoller, type PollerDeps } from "../../ingest/mod.ts";
import { statuspage } from "../../ingest/adapters/statuspage.ts";
import { silentLogger } from "../../log.ts";
import { ALLOW_SIMULATOR } from "./simulator.ts";

/** Poller dependencies over `store` and `clock`; `deps` adds or replaces any of them. */
export function testPollerDeps(
  store: Pick<Store, "polls">,
  clock: Clock,
  deps: Partial<PollerDeps> = {},
): PollerDeps {
  return {
    store: store.polls,
    clock,
    log: silentLogger,
    hostSpacingMs: 0,
    random: () => 0.5,
    ...deps,
  };
}

/**
 * A poller of Statuspage vendors served on loopback (a test's own server): one poll at a time,
 * every vendor due again each minute, on {@link testPollerDeps}.
 */
export function loopbackStatuspagePoller(store: Pick<Store, "polls">, clock: Clock) {
  return createPoller(
    {
      movingSeconds: 60,
      stableSeconds: 60,
      concurrency: 1,
      timeoutMs: 2000,
      allowPrivate: ALLOW_SIMULATOR,
    },
    testPollerDeps(store, clock, { adapters: { statuspage } }),
  );
}
