/**
 * The retention decisions both engines apply, as tables: where the change feed is cut, and which
 * transition a vendor's service history is kept from.
 */
import { equal } from "node:assert/strict";
import { changeFeedCutoff, keepsFromRecovery } from "../../domain/mod.ts";

Deno.test("changeFeedCutoff: the first fresh change, but never more than keepRows back", () => {
  const rows: [number | null, number, number, number, string][] = [
    // firstFresh, newest, keepRows → first id kept
    [50, 100, 1_000, 50, "everything from the first fresh change"],
    [50, 100, 10, 91, "at most ten rows: the newest ten"],
    [null, 100, 1_000, 101, "nothing fresh: every row is expired"],
    [null, 100, 10, 101, "nothing fresh, whatever the row cap"],
    [1, 0, 10, 1, "an empty feed keeps nothing to cut"],
    [100, 100, 1, 100, "the newest row alone"],
  ];
  for (const [firstFresh, newest, keepRows, cutoff, why] of rows) {
    equal(changeFeedCutoff(firstFresh, newest, keepRows), cutoff, why);
  }
});

Deno.test("keepsFromRecovery: the last recovery when it is no older than the hard cutoff", () => {
  const hard = 1_000;
  const rows: [{ id: number; at: number } | undefined, boolean, string][] = [
    [{ id: 7, at: 5_000 }, true, "a recovery after the hard cutoff: keep from it"],
    [{ id: 7, at: 1_000 }, true, "a recovery at the hard cutoff itself"],
    [{ id: 7, at: 999 }, false, "a recovery older than the hard cutoff: cut at the hard cutoff"],
    [undefined, false, "never recovered: cut at the hard cutoff"],
  ];
  for (const [recovery, fromRecovery, why] of rows) {
    equal(keepsFromRecovery(recovery, hard), fromRecovery, why);
  }
});
