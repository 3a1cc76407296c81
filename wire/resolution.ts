/**
 * A vendor's typical time to resolve as statusd shows it outside: p50 and p90 minutes overall
 * and per impact.
 * @module
 */
import { z } from "zod";
import { RESOLUTION_IMPACTS, type ResolutionImpact, type TimeToResolve } from "../domain/mod.ts";

/** How long a set of incidents took to resolve. */
export const ResolutionFigureSchema = z.object({
  incidents: z.number().int().meta({ description: "Incidents counted (the sample size)" }),
  p50Minutes: z.number().nullable().meta({
    description: "Median minutes from start to resolution (1 decimal); null when none",
    example: 38,
  }),
  p90Minutes: z.number().nullable().meta({
    description: "90th percentile minutes (nearest rank, 1 decimal); null when none",
    example: 130,
  }),
}).meta({ description: "How long a set of incidents took to resolve" });

/** Typical time to resolve. */
export const TimeToResolveSchema = z.object({
  windowDays: z.number().int().meta({
    description: "Incidents resolved within this many days are counted",
    example: 90,
  }),
  all: ResolutionFigureSchema.meta({ description: "Every counted incident" }),
  byImpact: z.object(
    Object.fromEntries(RESOLUTION_IMPACTS.map((i) => [i, ResolutionFigureSchema])) as Record<
      ResolutionImpact,
      typeof ResolutionFigureSchema
    >,
  ).meta({ description: "Per impact (every impact present; none counted gives nulls)" }),
}).meta({
  description: "The vendor's typical time to resolve: p50 and p90 of how long its incidents " +
    "resolved in the last 90 days lasted (start to resolution, as the vendor published them), " +
    "overall and per impact. Maintenance is left out. E.g. `byImpact.MAJOR.p50Minutes` 38 " +
    "and `p90Minutes` 130: its major incidents usually resolve in 38 min, 9 in 10 within " +
    "2 h 10 min.",
});

/** Typical time to resolve as JSON. */
export function timeToResolveJson(t: TimeToResolve): z.infer<typeof TimeToResolveSchema> {
  return {
    windowDays: t.windowDays,
    all: { ...t.all },
    byImpact: Object.fromEntries(
      RESOLUTION_IMPACTS.map((i) => [i, { ...t.byImpact[i] }]),
    ) as z.infer<typeof TimeToResolveSchema>["byImpact"],
  };
}
