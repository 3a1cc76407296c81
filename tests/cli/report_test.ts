/**
 * `status report` against a real statusd (HTTP on loopback), run as a subprocess: the report is
 * stored for the vendor's early warning; an unknown vendor exits 2 with close matches, no key
 * or a key without monitors:write exits 3; `status <slug>` shows an early warning under the
 * table without changing the exit code.
 */
import { equal, match } from "node:assert/strict";
import { MINUTE_MS } from "../../domain/mod.ts";
import { addVendor, apiRig, T0 } from "../support/api.ts";
import { account, key } from "../support/accounts.ts";
import { runStatus } from "../support/status_cli.ts";
import { episodeAt, openState } from "../support/warnings.ts";

const status = (args: string[], env: Record<string, string>) =>
  runStatus(args, { NO_COLOR: "1", ...env });

Deno.test("status report stores a report; status <slug> shows statusd's own early warning", async () => {
  const r = apiRig();
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, r.app.fetch);
  const api = `http://127.0.0.1:${server.addr.port}`;
  try {
    await addVendor(r.store, { slug: "github", status: "OPERATIONAL" });
    const who = await account(r.ctx, "ops@example.test");
    const writer = await key(r.ctx, who, "cli", ["monitors:write"]);
    const reader = await key(r.ctx, who, "ro", ["monitors:read"]);

    const sent = await status(
      ["report", "github", "--component", "API Requests", "--note", "502s", "--api", api],
      { STATUS_API_KEY: writer },
    );
    equal(sent.code, 0, sent.stderr);
    match(sent.stdout, /^Reported github \(API Requests\) as not working for you\./);
    const id = (await r.store.catalog.service("github"))!.id;
    equal((await r.store.warnings.reportsOf(who.account.id, 10))[0]!.component, "API Requests");
    // The reporting account sees its own warning at once; nobody else does.
    const mine = JSON.parse(
      (await status(["github", "--api", api, "--json"], { STATUS_API_KEY: reader })).stdout,
    );
    equal(mine.services[0].earlyWarning.visibility, "account");
    equal(mine.services[0].earlyWarning.component, "API Requests");
    const theirs = JSON.parse((await status(["github", "--api", api, "--json"], {})).stdout);
    equal(theirs.services[0].earlyWarning, null);

    const typo = await status(["report", "githb", "--api", api], { STATUS_API_KEY: writer });
    equal(typo.code, 2);
    match(typo.stderr, /did you mean "github"/);
    equal((await status(["report", "github", "--api", api], {})).code, 3);
    equal((await status(["report", "github", "--api", api], { STATUS_API_KEY: reader })).code, 3);
    equal((await status(["report", "--api", api], { STATUS_API_KEY: writer })).code, 2);

    await r.store.warnings.record(id, {
      answered: {},
      state: openState(
        episodeAt(T0 - MINUTE_MS, {
          suspectedAt: T0,
          failed: 3,
          total: 4,
          hosts: ["api.github.com"],
        }),
      ),
      finished: [],
    }, T0);
    r.cache.clear();
    const shown = await status(["github", "--api", api], {});
    equal(shown.code, 0, "the vendor's own status decides the exit code");
    match(shown.stdout, /github\s+\S+\s+OPERATIONAL — statusd's own checks: suspected/);
    match(
      shown.stdout,
      /Early warning \(statusd's own observation, not the vendor's status\):\n {2}github {2}statusd's own checks have seen errors from api\.github\.com since 11:59 UTC \(3 of 4 failed\); \S+ has not acknowledged it \(its status page reads operational\)\./,
    );
    const json = JSON.parse((await status(["github", "--api", api, "--json"], {})).stdout);
    equal(json.services[0].earlyWarning.phase, "suspected");
    equal(json.services[0].trackRecord.grade, null);
  } finally {
    await server.shutdown();
    await r.close();
  }
});
