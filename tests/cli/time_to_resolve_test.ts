/**
 * `status <slug>` prints the vendor's typical time to resolve under the table, and `--json`
 * carries the API's `timeToResolve`: the client run as a subprocess against a real statusd.
 */
import { deepStrictEqual, equal, ok } from "node:assert/strict";
import { apiRig } from "../support/api.ts";
import { ACME, addAcme } from "../support/pages.ts";
import { runStatus } from "../support/status_cli.ts";

const status = (api: string, args: string[]) =>
  runStatus(["--api", api, ...args], { NO_COLOR: "1" });

Deno.test("status acme: 'usually resolves' per impact, and timeToResolve in --json", async () => {
  const r = apiRig();
  await addAcme(r.store);
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, r.app.fetch);
  const api = `http://127.0.0.1:${server.addr.port}`;
  try {
    const table = await status(api, ["acme"]);
    equal(table.code, 0, table.stdout);
    ok(
      table.stdout.includes("Typical time to resolve (incidents of the last 90 days):"),
      table.stdout,
    );
    ok(
      table.stdout.includes(
        "  acme  usually resolves: major in 38 min (p90 2 h 10 min, 2 incidents) · " +
          "minor in 3 h (p90 3 h, 1 incident)",
      ),
      table.stdout,
    );
    const json = await status(api, ["acme", "--json"]);
    const t = JSON.parse(json.stdout).services[0].timeToResolve;
    deepStrictEqual(t.byImpact.MAJOR, ACME.timeToResolve.MAJOR);
    deepStrictEqual(t.all, ACME.timeToResolve.all);
  } finally {
    await server.shutdown();
    await r.close();
  }
});
