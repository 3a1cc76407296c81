/**
 * Which vendor a host, URL or error line belongs to, as statusd shows it outside (#47).
 * @module
 */
import { z } from "zod";
import { IMPACTS, INCIDENT_STATUSES, type LookupMatch } from "../domain/mod.ts";
import { StatusLevelSchema } from "./basics.ts";

/** One vendor a target belongs to. */
export const LookupMatchSchema = z.object({
  slug: z.string().meta({ example: "openai" }),
  name: z.string().meta({ example: "OpenAI" }),
  why: z.string().meta({
    description: "Which host of the target is the vendor's, and how",
    example: "api.openai.com is under openai.com, a domain of OpenAI",
  }),
  component: z.string().nullable().meta({
    description: "The vendor's component the host names (a region, a service), when it names one",
  }),
  currentStatus: StatusLevelSchema.meta({
    description: "The component's level when one is named, else the vendor's",
  }),
  openIncidents: z.array(z.object({
    title: z.string(),
    status: z.enum(INCIDENT_STATUSES),
    impact: z.enum(IMPACTS),
    url: z.string().nullable(),
  })),
});

/** The answer of a lookup: best first; empty when nothing fits (never a guess). */
export const LookupSchema = z.object({ matches: z.array(LookupMatchSchema) });

/** A lookup's matches as JSON. */
export function lookupJson(matches: readonly LookupMatch[]): z.infer<typeof LookupSchema> {
  return {
    matches: matches.map((m) => ({
      slug: m.slug,
      name: m.name,
      why: m.why,
      component: m.component,
      currentStatus: m.currentStatus,
      openIncidents: m.openIncidents.map((i) => ({ ...i })),
    })),
  };
}
