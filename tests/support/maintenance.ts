/**
 * Statuspage summaries with maintenance in them, for tests that need a maintenance at a given
 * time: Claude's recorded all-operational summary carrying Claude's recorded maintenance
 * (scheduled-maintenances.json) with its status, id and window set by the test. No recording
 * shows an upcoming maintenance at a time a test controls, hence this; every other field is as
 * the vendor published it.
 * @module
 */
import { toIso } from "../../domain/mod.ts";

const FIXTURES = new URL("../fixtures/statuspage/", import.meta.url);
const SUMMARY = JSON.parse(
  Deno.readTextFileSync(new URL("claude-summary-all-operational-2026.json", FIXTURES)),
);
const RECORDED = JSON.parse(
  Deno.readTextFileSync(new URL("claude-scheduled-maintenances-completed.json", FIXTURES)),
).scheduled_maintenances[0];

/** One maintenance to put in a summary. */
export interface MaintenanceSpec {
  readonly id: string;
  readonly name?: string;
  /** Statuspage word: `scheduled`, `in_progress`, `verifying` or `completed`. */
  readonly status: "scheduled" | "in_progress" | "verifying" | "completed";
  readonly startsAt: number;
  readonly endsAt: number;
  /** When it was announced (the first update); default one day before it starts. */
  readonly announcedAt?: number;
}

/** The recorded maintenance with `spec`'s id, status and window (its first update kept). */
export function maintenanceJson(spec: MaintenanceSpec): Record<string, unknown> {
  const announced = toIso(spec.announcedAt ?? spec.startsAt - 24 * 3600_000);
  const first = RECORDED.incident_updates.at(-1);
  return {
    ...RECORDED,
    id: spec.id,
    name: spec.name ?? RECORDED.name,
    status: spec.status,
    created_at: announced,
    updated_at: announced,
    started_at: announced,
    resolved_at: null,
    monitoring_at: null,
    scheduled_for: toIso(spec.startsAt),
    scheduled_until: toIso(spec.endsAt),
    shortlink: `https://stspg.io/${spec.id}`,
    incident_updates: [{
      ...first,
      id: `${spec.id}-u1`,
      incident_id: spec.id,
      status: "scheduled",
      created_at: announced,
      display_at: announced,
      updated_at: announced,
    }],
  };
}

/** Claude's all-operational summary with these maintenances (the indicator left as published). */
export function summaryWithMaintenances(specs: readonly MaintenanceSpec[]): string {
  return JSON.stringify({ ...SUMMARY, scheduled_maintenances: specs.map(maintenanceJson) });
}
