/**
 * An incident or maintenance as statusd shows it outside, with its timeline, what the vendor
 * rewrote of it, and a maintenance's overrun.
 * @module
 */
import { z } from "zod";
import {
  type EpochMs,
  IMPACTS,
  type Incident,
  INCIDENT_STATUSES,
  overrunJson,
  REVISION_KINDS,
  revisionsJson,
  toIso,
} from "../domain/mod.ts";
import { Timestamp } from "./basics.ts";

/** One timeline entry. */
export const IncidentUpdateSchema = z.object({
  at: Timestamp,
  status: z.enum(INCIDENT_STATUSES),
  body: z.string().meta({ description: "The vendor's text, as published (plain text)" }),
});

/** An incident or maintenance with its timeline. */
export const IncidentSchema = z.object({
  id: z.string(),
  serviceSlug: z.string().meta({ description: "Slug of the affected service" }),
  title: z.string(),
  status: z.enum(INCIDENT_STATUSES).meta({
    description: "INVESTIGATING, IDENTIFIED, MONITORING, RESOLVED; for maintenance SCHEDULED, " +
      "IN_PROGRESS, COMPLETED",
  }),
  impact: z.enum(IMPACTS),
  startedAt: Timestamp,
  updatedAt: Timestamp,
  resolvedAt: Timestamp.nullable(),
  url: z.string().nullable().meta({ description: "The incident on the vendor's page" }),
  components: z.array(z.string()).meta({ description: "Names of the affected components" }),
  updates: z.array(IncidentUpdateSchema).meta({ description: "Timeline, oldest first" }),
  scheduledStartAt: Timestamp.nullable().meta({
    description: "Maintenance: planned start as the vendor announced it; null when not published",
  }),
  scheduledEndAt: Timestamp.nullable().meta({
    description: "Maintenance: planned end as the vendor announced it; null when not published",
  }),
  revisions: z.array(z.object({
    at: Timestamp.meta({ description: "When statusd saw the rewrite" }),
    kind: z.enum(REVISION_KINDS).meta({
      description: "update_edited: an update's text changed; impact_lowered: the impact was " +
        "lowered after the incident ended; start_moved: its start time changed; removed: the " +
        "vendor took it off its page (before: its title); restored: it is listed again",
    }),
    before: z.string().meta({ description: "What the vendor had published" }),
    after: z.string().meta({ description: "What it publishes now" }),
  })).meta({
    description: "What the vendor rewrote of this incident after publishing it, oldest " +
      "first, with what statusd saw before (at most 20)",
  }),
  removedAt: Timestamp.nullable().meta({
    description: "When statusd saw the vendor take it off its status page while newer " +
      "incidents stayed listed (it is kept, with what it said); null while it is listed",
  }),
  overrun: z.object({
    since: Timestamp.meta({ description: "The announced end it went past" }),
    seconds: z.number().int().meta({ description: "How long past it, at the answer's time" }),
  }).nullable().meta({
    description: "A maintenance past its announced end that the vendor has not closed (it " +
      "still counts as under way); null for anything else",
  }),
}).meta({ description: "An incident or maintenance as the vendor published it" });

/** An incident as JSON. */
export function incidentJson(i: Incident, now: EpochMs): z.infer<typeof IncidentSchema> {
  return {
    id: i.id,
    serviceSlug: i.serviceSlug,
    title: i.title,
    status: i.status,
    impact: i.impact,
    startedAt: toIso(i.startedAt),
    updatedAt: toIso(i.updatedAt),
    resolvedAt: toIso(i.resolvedAt),
    url: i.url,
    components: [...i.components],
    updates: i.updates.map((u) => ({ at: toIso(u.at), status: u.status, body: u.body })),
    scheduledStartAt: toIso(i.scheduledStartAt),
    scheduledEndAt: toIso(i.scheduledEndAt),
    revisions: revisionsJson(i),
    removedAt: toIso(i.removedAt ?? null),
    overrun: overrunJson(i, now),
  };
}
