/**
 * Attempt counters on SQLite: one process owns a SQLite database, so the counters live in its
 * memory (bounded per limit by the rule's `maxKeys`; a restart forgets them).
 * @module
 */
import { AttemptCounter, type AttemptStore } from "../../domain/mod.ts";

/** The attempts noun, in memory. */
export function attemptStore(): AttemptStore {
  const counters = new Map<string, AttemptCounter>();
  const counter = (scope: string, rule: AttemptCounter["rule"]) => {
    let c = counters.get(scope);
    if (!c) counters.set(scope, c = new AttemptCounter(rule));
    return c;
  };
  return {
    take: (scope, key, rule, now) => Promise.resolve(counter(scope, rule).take(key, now)),
    refund(scope, key, rule, now) {
      counter(scope, rule).refund(key, now);
      return Promise.resolve();
    },
    prune(before) {
      let n = 0;
      for (const c of counters.values()) n += c.prune(before);
      return Promise.resolve(n);
    },
  };
}
