/**
 * Day-by-day views for the 90-day bars: what happened on each UTC day (incidents overlapping
 * it) and a component's worst level per day, known only while its service was known. Pure.
 * @module
 */
import { type StatusLevel, worst } from "./status.ts";
import { DAY_MS, type EpochMs, utcDayStart } from "./time.ts";
import { type DayWorst, type Segment, segmentsIn, type StatusTransition } from "./uptime.ts";

/** Anything with a start and (once over) an end: an incident or maintenance. */
export interface Span {
  readonly startedAt: EpochMs;
  readonly resolvedAt: EpochMs | null;
}

/**
 * For each UTC day starting at `days[k]`, the items that overlap it (started before the day
 * ended and ended, or are still open at `now`, at or after it began), in the items' order.
 */
export function overlappingDays<T extends Span>(
  items: readonly T[],
  days: readonly EpochMs[],
  now: EpochMs,
): T[][] {
  return days.map((day) =>
    items.filter((i) => i.startedAt < day + DAY_MS && (i.resolvedAt ?? now) >= day)
  );
}

/** `a`'s segments cut where `b`'s change, UNKNOWN wherever `b` is UNKNOWN (same window). */
function masked(a: readonly Segment[], b: readonly Segment[]): Segment[] {
  const out: Segment[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    const x = a[i]!;
    const y = b[j]!;
    const start = Math.max(x.start, y.start);
    const end = Math.min(x.end, y.end);
    if (end > start) {
      out.push({ start, end, status: y.status === "UNKNOWN" ? "UNKNOWN" : x.status });
    }
    if (x.end <= y.end) i++;
    else j++;
  }
  return out;
}

/**
 * Worst level per UTC day of a component, for the `days` days ending with the day of `now`
 * (oldest first), as `dailyWorst` computes it for a service, except that time when the
 * service itself was UNKNOWN (statusd could not read the vendor) is UNKNOWN for the component
 * too: a component keeps its last published level while its page cannot be read, which says
 * nothing about it. `componentNow` and `serviceNow` are the levels held when there is no
 * transition at all. Linear in the transitions (one pass over the whole window).
 */
export function componentDailyWorst(
  component: { readonly transitions: readonly StatusTransition[]; readonly now: StatusLevel },
  service: { readonly transitions: readonly StatusTransition[]; readonly now: StatusLevel },
  now: EpochMs,
  days: number,
): DayWorst[] {
  const first = utcDayStart(now) - (days - 1) * DAY_MS;
  const window = { start: first, end: now };
  const held = masked(
    segmentsIn(component.transitions, window, component.now),
    segmentsIn(service.transitions, window, service.now),
  );
  const out: DayWorst[] = [];
  let k = 0;
  for (let d = 0; d < days; d++) {
    const day = first + d * DAY_MS;
    const end = Math.min(day + DAY_MS, now);
    const levels: StatusLevel[] = [];
    while (k < held.length && held[k]!.end <= day) k++;
    for (let m = k; m < held.length && held[m]!.start < end; m++) levels.push(held[m]!.status);
    out.push({ day, worstStatus: worst(levels) });
  }
  return out;
}
