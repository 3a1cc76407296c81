/**
 * What statusd saw of a vendor itself, as it shows it outside: the early warning open now and
 * how quickly the vendor admits trouble (its track record).
 * @module
 */
import { z } from "zod";

/** statusd's own early warning of a service (never the vendor's status). */
export const EarlyWarningSchema = z.object({
  phase: z.enum(["suspected", "acknowledged"]).meta({
    description: "`suspected`: statusd's probes or accounts' reports see trouble the vendor has " +
      "not admitted; `acknowledged`: statusd has since seen the vendor admit it (a reading " +
      "showing its status other than operational, or listing an incident)",
  }),
  since: z.string().meta({ format: "date-time", description: "statusd's first evidence" }),
  suspectedAt: z.string().meta({ format: "date-time" }),
  acknowledgedAt: z.string().nullable().meta({
    format: "date-time",
    description: "When statusd first saw the vendor admit it (statusd's own reading, never a " +
      "date the vendor writes)",
  }),
  vendorClaimedStart: z.string().nullable().meta({
    format: "date-time",
    description: "The start the vendor itself gives the incident that admitted it, kept beside " +
      "acknowledgedAt and never in its place (null: admitted by its status, or not yet)",
  }),
  delayMinutes: z.number().int().nullable().meta({
    description: "Minutes from statusd's first evidence to the vendor's acknowledgement (0: " +
      "the vendor was first); null while it has not acknowledged",
  }),
  evidence: z.enum(["probes", "reports", "probes_and_reports"]),
  probes: z.object({
    failed: z.number().int(),
    total: z.number().int(),
    hosts: z.array(z.string()),
  }).meta({ description: "The latest failing probe round" }),
  reporters: z.number().int().meta({
    description: "`public`: independent accounts whose reports counted (each had monitored the " +
      "vendor for 7 days); `account`: your account's members who reported it in the last 30 " +
      "minutes",
  }),
  component: z.string().nullable().meta({
    description: "`account` only: the component your account's latest report named",
  }),
  summary: z.string().meta({
    example: "statusd's own checks have seen errors from api.example.com since 10:02 UTC " +
      "(8 of 10 failed); Example has not acknowledged it (its status page reads operational).",
  }),
  visibility: z.enum(["public", "account"]).meta({
    description: "`public`: what anyone sees (statusd's probes, or reports of several " +
      "long-standing accounts); `account`: your account's own reports, which no one else sees",
  }),
  ownObservation: z.literal(true).meta({
    description: "Always true: statusd's own observation, not the vendor's",
  }),
});

/** How quickly the vendor admits trouble statusd saw itself (its acknowledgement grade). */
export const TrackRecordSchema = z.object({
  windowDays: z.number().int(),
  episodes: z.number().int().meta({ description: "Episodes statusd saw itself, finished" }),
  unacknowledged: z.number().int().meta({
    description: "Of them, never acknowledged by the vendor (each counts 240 min)",
  }),
  vendorFirst: z.number().int().meta({
    description: "Of them, acknowledged by the vendor before statusd saw anything",
  }),
  averageDelayMinutes: z.number().nullable(),
  grade: z.enum(["A", "B", "C", "D", "F"]).nullable().meta({
    description: "A under 15 min average delay, B 15–30 min, C 30 min–2 h, D 2–4 h, F over " +
      "4 h; null below 3 episodes",
  }),
  gradeNote: z.string().nullable(),
  backdatedIncidents: z.number().int().meta({
    description: "Incidents of the window whose start, as the vendor gives it, is earlier than " +
      "statusd's last reading of the vendor's page before it first listed them (back-dated)",
  }),
});
