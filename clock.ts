/**
 * The real clock, the one place the server reads the time of day (everything else is handed a
 * {@link Clock}, so tests can pin it). Kept out of `domain/`, which has no clocks.
 * @module
 */
import type { Clock } from "./domain/mod.ts";

/** The real clock. */
export const systemClock: Clock = { now: () => Date.now() };
