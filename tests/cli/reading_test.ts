/**
 * Reading health through the `status` client, run as a subprocess against a real statusd whose
 * vendors the poller read from the simulator: the STATUS column says why statusd cannot read a
 * vendor and since when (`UNKNOWN — timeout since 12:00`), and `--json` carries `reading`.
 */
import { deepStrictEqual, equal, match } from "node:assert/strict";
import { FAILING, readingRig } from "../support/reading_rig.ts";
import { runStatus } from "../support/status_cli.ts";

const status = (args: string[]) => runStatus(args);

/** Table cells of each row (columns are two or more spaces apart). */
function rows(stdout: string): string[][] {
  return stdout.trimEnd().split("\n").map((l) => l.trim().split(/\s{2,}/));
}

/** "since 12:00" today (UTC), "since 2026-11-20 12:00" any other day. */
const SINCE = "since (2026-11-20 )?12:00";

Deno.test("reading health through the status CLI", async (t) => {
  const rig = await readingRig();
  const api = ["--api", rig.url];
  try {
    await t.step("the STATUS column says why and since when, for each error kind", async () => {
      const run = await status([...api, "status", ...FAILING.map((f) => f.slug)]);
      equal(run.code, 1, run.stderr);
      equal(run.stderr, "");
      const table = rows(run.stdout);
      for (const f of FAILING) {
        const row = table.find((r) => r[0] === f.slug);
        match(row![2]!, new RegExp(`^UNKNOWN — ${f.words} ${SINCE}$`), f.slug);
      }
    });

    await t.step("unsupported, not read yet, and a fresh vendor as it was", async () => {
      const run = await status([...api, "okta-like", "new-co", "calm-co"]);
      equal(run.code, 1);
      const table = rows(run.stdout);
      deepStrictEqual(table.map((r) => r[2]), [
        "STATUS",
        "UNKNOWN — unsupported: no machine-readable status",
        "UNKNOWN — not read yet",
        "OPERATIONAL",
      ]);
    });

    await t.step("--json carries the reading as the API returns it", async () => {
      const run = await status([...api, "status", "err-co", "okta-like", "--json"]);
      equal(run.code, 1);
      const body = JSON.parse(run.stdout);
      const api0 = await (await fetch(`${rig.url}/api/services/err-co`)).json();
      deepStrictEqual(body.services[0].reading, api0.reading);
      equal(body.services[0].reading.error.kind, "http_status");
      equal(body.services[0].reading.error.httpStatus, 500);
      equal(body.services[1].reading.state, "unsupported");
    });

    await t.step("check says why an UNKNOWN vendor fails", async () => {
      const run = await status([...api, "check", "slow-co", "calm-co"]);
      equal(run.code, 1);
      match(run.stdout, new RegExp(`^FAIL: slow-co is UNKNOWN — timeout ${SINCE} \\(`, "m"));
      const json = JSON.parse((await status([...api, "check", "okta-like", "--json"])).stdout);
      equal(json.services[0].reading, "unsupported");
    });

    await t.step("--help documents the reading", async () => {
      const run = await status(["status", "--help"]);
      match(run.stdout, /UNKNOWN — timeout since 12:03/);
      match(run.stdout, /"reading": \{"state"/);
    });
  } finally {
    await rig.close();
  }
});
