/**
 * What a test's poller runs on, said once: the store's poll side, the test's clock, no log, no
 * spacing between requests to one host, and a fixed random source (jitter at its middle), so a
 * round polls every due vendor at once and schedules are exact.
 * @module
 */
import type { Clock, Store } from "../../domain/mod.ts";
import type { PollerDeps } from "../../ingest/mod.ts";
import { silentLogger } from "../../log.ts";

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
