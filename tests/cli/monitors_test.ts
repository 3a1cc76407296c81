/**
 * `status monitors` against a real statusd (HTTP on loopback), run as a subprocess: exit 0 when
 * every monitor that is not paused is operational, 1 when one is not, 3 without a key; the table
 * and the JSON.
 */
import { deepStrictEqual, equal, match } from "node:assert/strict";
import {
  createBoard,
  createGroup,
  createMonitor,
  updateBoard,
  updateMonitor,
} from "../../app/mod.ts";
import { addIncident, addVendor, apiRig, setStatus, T0 } from "../support/api.ts";
import { account, key } from "../support/accounts.ts";
import { runStatus } from "../support/status_cli.ts";

const status = (args: string[], env: Record<string, string>) =>
  runStatus(args, { NO_COLOR: "1", ...env });

Deno.test("status monitors: the account's monitors, exit 1 when one is broken, 3 without a key", async () => {
  const r = apiRig();
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, r.app.fetch);
  const api = `http://127.0.0.1:${server.addr.port}`;
  try {
    await addVendor(r.store, { slug: "github", status: "OPERATIONAL" });
    await addVendor(r.store, { slug: "stripe", status: "OPERATIONAL" });
    const who = await account(r.ctx, "ops@example.test");
    const secret = await key(r.ctx, who, "cli", ["monitors:read"]);
    const admin = { kind: "admin", account: who.account } as const;
    await createMonitor(r.ctx, admin, { service: "github", label: "code" });
    await createMonitor(r.ctx, admin, { service: "stripe", label: "payments" });
    const env = { STATUS_API_KEY: secret };

    const calm = await status(["monitors", "--api", api], env);
    equal(calm.code, 0, calm.stderr);
    match(calm.stdout, /^MONITOR\s+SERVICE\s+STATUS/);
    match(calm.stdout, /code\s+github\s+OPERATIONAL/);

    await setStatus(r.store, "stripe", "MAJOR_OUTAGE", T0 + 60_000);
    const broken = await status(["monitors", "--api", api, "--json"], env);
    equal(broken.code, 1, broken.stderr);
    const json = JSON.parse(broken.stdout);
    equal(json.ok, false);
    deepStrictEqual(
      json.monitors.map((m: { service: string; currentStatus: string }) => [
        m.service,
        m.currentStatus,
      ]),
      [["github", "OPERATIONAL"], ["stripe", "MAJOR_OUTAGE"]],
    );

    // A paused monitor does not fail the check.
    const stripe = json.monitors[1].id as string;
    await updateMonitor(r.ctx, admin, stripe, { paused: true }, null);
    equal((await status(["monitors", "--api", api], env)).code, 0);

    const keyless = await status(["monitors", "--api", api], {});
    equal(keyless.code, 3);
    match(keyless.stderr, /status: .*(key|401|unauthorized)/i);
    equal((await status(["monitors", "extra", "--api", api], env)).code, 2);
  } finally {
    await server.shutdown();
    await r.close();
  }
});

Deno.test("status check --board: a public board needs no key; a broken entry fails; a private board needs its key", async () => {
  const r = apiRig();
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, r.app.fetch);
  const api = `http://127.0.0.1:${server.addr.port}`;
  try {
    await addVendor(r.store, { slug: "github", status: "OPERATIONAL" });
    await addVendor(r.store, { slug: "stripe", status: "OPERATIONAL" });
    const who = await account(r.ctx, "ops@example.test");
    const admin = { kind: "admin", account: who.account } as const;
    const gh = await createMonitor(r.ctx, admin, { service: "github" });
    const st = await createMonitor(r.ctx, admin, { service: "stripe" });
    const group = await createGroup(r.ctx, admin, { name: "payments", monitors: [st.id] });
    const board = await createBoard(r.ctx, admin, {
      slug: "our-stack",
      title: "Our stack",
      public: true,
      items: [{ kind: "monitor", id: gh.id }, { kind: "group", id: group.id }],
    });
    await createBoard(r.ctx, admin, { slug: "secret", title: "Private" });

    const calm = await status(["check", "--board", "our-stack", "--api", api], {});
    equal(calm.code, 0, calm.stderr);
    match(calm.stdout, /our-stack\/group\s+payments\s+OPERATIONAL\s+pass/);

    await setStatus(r.store, "stripe", "MAJOR_OUTAGE", T0 + 60_000);
    const broken = await status(["check", "--board", "our-stack", "--api", api, "--json"], {});
    equal(broken.code, 1, broken.stderr);
    const json = JSON.parse(broken.stdout);
    equal(json.ok, false);
    deepStrictEqual(
      json.board.entries.map((e: { name: string; failed: boolean }) => [e.name, e.failed]),
      [["github", false], ["payments", true]],
    );
    // Lenient: only a major outage or worse fails; stripe is major, so it still fails.
    equal(
      (await status(["check", "--board", "our-stack", "--fail-on", "major", "--api", api], {}))
        .code,
      1,
    );
    await updateBoard(r.ctx, admin, board.id, { items: [{ kind: "monitor", id: gh.id }] }, null);
    equal((await status(["check", "--board", "our-stack", "--api", api], {})).code, 0);

    const hidden = await status(["check", "--board", "secret", "--api", api], {});
    equal(hidden.code, 2);
    match(hidden.stderr, /No board "secret"/);
    const secret = await key(r.ctx, who, "ci", ["monitors:read"]);
    const mine = await status(["check", "--board", "secret", "--api", api], {
      STATUS_API_KEY: secret,
    });
    equal(mine.code, 0, mine.stderr);
    equal((await status(["check", "--board", "nope", "--api", api], {})).code, 2);
    equal((await status(["check", "--api", api], {})).code, 2, "a slug or a board is needed");
  } finally {
    await server.shutdown();
    await r.close();
  }
});

Deno.test("status gate --board: every service on the board is gated", async () => {
  const r = apiRig();
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, r.app.fetch);
  const api = `http://127.0.0.1:${server.addr.port}`;
  try {
    await addVendor(r.store, { slug: "github", status: "OPERATIONAL" });
    await addVendor(r.store, { slug: "stripe", status: "OPERATIONAL" });
    const who = await account(r.ctx, "ops@example.test");
    const admin = { kind: "admin", account: who.account } as const;
    const gh = await createMonitor(r.ctx, admin, { service: "github" });
    const st = await createMonitor(r.ctx, admin, { service: "stripe" });
    const group = await createGroup(r.ctx, admin, { name: "payments", monitors: [st.id] });
    await createBoard(r.ctx, admin, {
      slug: "deploy-deps",
      title: "Deploy dependencies",
      public: true,
      items: [{ kind: "monitor", id: gh.id }, { kind: "group", id: group.id }],
    });
    const calm = await status(["gate", "--board", "deploy-deps", "--api", api, "--json"], {});
    equal(calm.code, 0, calm.stderr);
    deepStrictEqual(
      JSON.parse(calm.stdout).services.map((s: { slug: string }) => s.slug).sort(),
      ["github", "stripe"],
    );
    await addIncident(r.store, "stripe", {
      externalId: "1",
      title: "Payments failing",
      status: "INVESTIGATING",
      impact: "MAJOR",
      startedAt: T0,
    });
    const blocked = await status(["gate", "--board", "deploy-deps", "--api", api], {});
    equal(blocked.code, 1, blocked.stderr);
    match(blocked.stdout, /stripe/);
    match(blocked.stdout, /Payments failing/);
    equal((await status(["gate", "--board", "nope", "--api", api], {})).code, 2);
  } finally {
    await server.shutdown();
    await r.close();
  }
});
