/**
 * The pulse decisions as tables (ingest/pulse_decision.ts): which vendors are calm enough to
 * pulse, when the pulse goes before the full read, and what a pulse read says.
 */
import { equal } from "node:assert/strict";
import type { StatusLevel } from "../../domain/mod.ts";
import { calmForPulse, pulseGoesFirst, pulseVerdict } from "../../ingest/pulse_decision.ts";

Deno.test("calmForPulse: succeeding, neither moving nor unknown — or never read yet", () => {
  const rows: [number, boolean, boolean, StatusLevel, boolean, string][] = [
    // failures, everRead, moving, level → calm
    [0, true, false, "OPERATIONAL", true, "read, calm, operational"],
    [0, true, true, "OPERATIONAL", false, "moving (an incident, a recent change)"],
    [0, true, false, "UNKNOWN", false, "its level is unknown"],
    [1, true, false, "OPERATIONAL", false, "its last poll failed"],
    [0, false, false, "UNKNOWN", true, "never read: pulse too, for a first fingerprint"],
    [0, false, true, "UNKNOWN", true, "never read, whatever the schedule says"],
    [2, false, false, "UNKNOWN", false, "never read and failing"],
  ];
  for (const [failures, everRead, moving, level, calm, why] of rows) {
    equal(calmForPulse({ failures, everRead, moving, level }), calm, why);
  }
});

Deno.test("pulseGoesFirst: unless a full read is due and a pulse was seen before", () => {
  const rows: [string | null, boolean, boolean][] = [
    ["fp", false, true],
    ["fp", true, false],
    [null, true, true],
    [null, false, true],
  ];
  for (const [fingerprint, fullReadDue, first] of rows) {
    equal(pulseGoesFirst({ fingerprint, fullReadDue }), first, `${fingerprint} ${fullReadDue}`);
  }
});

Deno.test("pulseVerdict: unchanged ends the poll; a new fingerprint is a change; else read in full", () => {
  const rows: [string | null, string | null, boolean, string][] = [
    // read, previous, fullReadDue → verdict
    ["a", "a", false, "unchanged"],
    ["a", "a", true, "read"],
    ["b", "a", false, "changed"],
    ["b", "a", true, "changed"],
    ["a", null, false, "read"],
    [null, null, false, "read"],
    [null, "a", false, "changed"],
  ];
  for (const [read, previous, fullReadDue, verdict] of rows) {
    equal(
      pulseVerdict({ read, previous, fullReadDue }),
      verdict,
      `${read} ${previous} ${fullReadDue}`,
    );
  }
});
