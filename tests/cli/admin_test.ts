import { deepStrictEqual, equal, match, ok } from "node:assert/strict";
import { join } from "node:path";
import { type AdminIo, runAdmin } from "../../cli/admin/mod.ts";
import { authenticate, createAppContext } from "../../app/mod.ts";
import { Unauthorized } from "../../domain/mod.ts";
import { silentLogger } from "../../log.ts";
import { openSqliteStore } from "../../store/mod.ts";
import { systemClock } from "../../clock.ts";
import { PASSWORD } from "../support/accounts.ts";

function io(stdin = "") {
  const out: string[] = [];
  const err: string[] = [];
  const value: AdminIo = {
    stdin: () => Promise.resolve(stdin),
    out: (l) => out.push(l),
    err: (l) => err.push(l),
  };
  return { io: value, out, err };
}

function ctxFor(path: string) {
  return createAppContext({
    store: openSqliteStore(path),
    clock: systemClock,
    log: silentLogger,
    settings: { publicUrl: "http://localhost", pollStableSeconds: 300, pollMovingSeconds: 60 },
  });
}

Deno.test("the self-hoster's path: create an account, refused key on Free, set-plan, create and revoke a key", async () => {
  const dir = await Deno.makeTempDir();
  const env = { STATUSD_DB: join(dir, "statusd.db") };
  try {
    const a = io(PASSWORD + "\n");
    equal(
      await runAdmin(
        ["create-account", "--email", "ops@example.com", "--password-stdin"],
        env,
        a.io,
      ),
      0,
    );
    match(a.out[0]!, /Created account .* \(FREE\) with owner ops@example\.com/);

    const refused = io();
    equal(
      await runAdmin(["create-key", "--email", "ops@example.com", "--name", "ci"], env, refused.io),
      1,
    );
    deepStrictEqual(refused.out, []);
    match(refused.err.join("\n"), /requires the PRO plan or above/);

    equal(
      await runAdmin(["set-plan", "--email", "ops@example.com", "--plan", "PRO"], env, io().io),
      0,
    );
    const made = io();
    equal(
      await runAdmin(
        [
          "create-key",
          "--email",
          "ops@example.com",
          "--name",
          "ci",
          "--scopes",
          "sla:read,status:read",
        ],
        env,
        made.io,
      ),
      0,
    );
    equal(made.out.length, 1); // the key, alone on its line
    const secret = made.out[0]!;
    match(secret, /^sd_live_[A-Za-z0-9_-]{43}$/);
    match(made.err.join("\n"), /printed once/);

    const ctx = ctxFor(env.STATUSD_DB);
    const p = await authenticate(ctx, secret);
    deepStrictEqual(p.kind === "api_key" ? [...p.scopes].sort() : null, [
      "sla:read",
      "status:read",
    ]);

    const listed = io();
    equal(await runAdmin(["list-accounts", "--json"], env, listed.io), 0);
    const rows = JSON.parse(listed.out.join("\n"));
    deepStrictEqual(
      rows.map((r: Record<string, unknown>) => [r.plan, r.owners, r.activeKeys, r.slaTarget]),
      [["PRO", ["ops@example.com"], 1, 99.9]],
    );
    ok(!listed.out.join("").includes(secret.slice(12)));

    const revoked = io();
    equal(
      await runAdmin(["revoke-key", "--email", "ops@example.com", "--name", "ci"], env, revoked.io),
      0,
    );
    match(revoked.out[0]!, /Revoked key "ci"/);
    let refusedAfter = false;
    try {
      await authenticate(ctx, secret);
    } catch (err) {
      refusedAfter = err instanceof Unauthorized;
    }
    ok(refusedAfter);
    await ctx.store.close();
    equal(
      await runAdmin(["revoke-key", "--email", "ops@example.com", "--name", "ci"], env, io().io),
      1,
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("usage mistakes exit 2 with a message; --help exits 0", async () => {
  const env = { STATUSD_DB: ":memory:" };
  const help = io();
  equal(await runAdmin(["--help"], env, help.io), 0);
  match(help.out[0]!, /create-key --email E --name N \[--scopes/);
  const noCommand = io();
  equal(await runAdmin([], env, noCommand.io), 2);
  const unknown = io();
  equal(await runAdmin(["make-coffee"], env, unknown.io), 2);
  match(unknown.err[0]!, /Unknown command "make-coffee"/);
  const missing = io();
  equal(await runAdmin(["set-plan", "--plan", "PRO"], env, missing.io), 2);
  match(missing.err[0]!, /--email is required/);
  const badPlan = io();
  equal(await runAdmin(["set-plan", "--email", "a@b.c", "--plan", "GOLD"], env, badPlan.io), 2);
  match(badPlan.err[0]!, /--plan must be one of FREE, PRO, TEAM, ENTERPRISE/);
  const badFlag = io();
  equal(await runAdmin(["list-accounts", "--colour"], env, badFlag.io), 2);
});

Deno.test("a misspelt flag is named with the right one suggested; a flag of another command too", async () => {
  const env = { STATUSD_DB: ":memory:" };
  const typo = io(PASSWORD + "\n");
  equal(
    await runAdmin(
      ["create-account", "--emial", "ops@example.com", "--password-stdin"],
      env,
      typo.io,
    ),
    2,
  );
  equal(typo.err[0], "unknown flag --emial; did you mean --email?");
  const eq = io();
  equal(await runAdmin(["set-plan", "--email", "a@b.c", "--pln=PRO"], env, eq.io), 2);
  equal(eq.err[0], "unknown flag --pln; did you mean --plan?");
  const other = io();
  equal(
    await runAdmin(
      ["set-plan", "--email", "a@b.c", "--plan", "PRO", "--role", "ADMIN"],
      env,
      other.io,
    ),
    2,
  );
  match(other.err[0]!, /^unknown flag --role \(set-plan takes --email, --plan, --help\)$/);
  const nothingClose = io();
  equal(await runAdmin(["list-accounts", "--colour"], env, nothingClose.io), 2);
  equal(nothingClose.err[0], "unknown flag --colour");
});

Deno.test("--plan and --role are accepted in any case; set-role keeps the last owner", async () => {
  const dir = await Deno.makeTempDir();
  const env = { STATUSD_DB: join(dir, "statusd.db") };
  try {
    const made = io(PASSWORD + "\n");
    equal(
      await runAdmin(
        ["create-account", "--email", "ops@example.com", "--password-stdin", "--plan", "pro"],
        env,
        made.io,
      ),
      0,
      made.err.join("\n"),
    );
    match(made.out[0]!, /\(PRO\) with owner ops@example\.com/);
    const team = io();
    equal(
      await runAdmin(["set-plan", "--email", "ops@example.com", "--plan", "Team"], env, team.io),
      0,
    );
    match(team.out[0]!, /is now TEAM/);
    const member = io(PASSWORD + "\n");
    equal(
      await runAdmin(
        [
          "add-member",
          "--owner-email",
          "ops@example.com",
          "--email",
          "dev@example.com",
          "--password-stdin",
          "--role",
          "admin",
        ],
        env,
        member.io,
      ),
      0,
      member.err.join("\n"),
    );
    match(member.out[0]!, /as ADMIN/);
    const demoted = io();
    equal(
      await runAdmin(
        ["set-role", "--email", "dev@example.com", "--role", "member"],
        env,
        demoted.io,
      ),
      0,
      demoted.err.join("\n"),
    );
    match(demoted.out[0]!, /dev@example\.com is now MEMBER/);
    const last = io();
    equal(
      await runAdmin(["set-role", "--email", "ops@example.com", "--role", "ADMIN"], env, last.io),
      1,
    );
    match(last.err.join("\n"), /only owner/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("deno task admin reads the password from standard input", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const child = new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "-A",
        "main.ts",
        "admin",
        "create-account",
        "--email",
        "t@example.com",
        "--password-stdin",
        "--plan",
        "TEAM",
      ],
      cwd: new URL("../../", import.meta.url).pathname,
      env: { STATUSD_DB: join(dir, "s.db") },
      stdin: "piped",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    const w = child.stdin.getWriter();
    await w.write(new TextEncoder().encode(PASSWORD + "\n"));
    await w.close();
    const { code, stdout } = await child.output();
    equal(code, 0);
    match(new TextDecoder().decode(stdout), /\(TEAM\) with owner t@example\.com/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("promote-vendor lists an added status page for everyone; a catalog vendor is refused", async () => {
  const dir = await Deno.makeTempDir();
  const env = { STATUSD_DB: join(dir, "statusd.db") };
  try {
    equal(
      await runAdmin(
        ["create-account", "--email", "ops@example.com", "--password-stdin"],
        env,
        io(PASSWORD + "\n").io,
      ),
      0,
    );
    const ctx = ctxFor(env.STATUSD_DB);
    const [account] = await ctx.store.accounts.list();
    await ctx.store.catalog.sync([{
      name: "Acme",
      slug: "acme",
      statusPageUrl: "https://status.acme.test",
      platform: "statuspage",
      category: "other",
      provider: "acme",
      domains: [],
    }], Date.now());
    await ctx.store.catalog.addVendor(
      account!.id,
      {
        name: "Crisp",
        slug: "crisp",
        statusPageUrl: "https://status.crisp.test",
        platform: "statuspage",
        domains: [],
      },
      Date.now(),
      3,
    );
    equal((await ctx.store.catalog.candidates({})).some((c) => c.slug === "crisp"), false);
    await ctx.store.close();

    const done = io();
    equal(await runAdmin(["promote-vendor", "crisp"], env, done.io), 0, done.err.join("\n"));
    match(done.out[0]!, /crisp is listed for everyone/);
    const after = ctxFor(env.STATUSD_DB);
    equal((await after.store.catalog.candidates({})).some((c) => c.slug === "crisp"), true);
    await after.store.close();

    const refused = io();
    equal(await runAdmin(["promote-vendor", "acme"], env, refused.io), 1);
    match(refused.err.join("\n"), /not a status page an account added/);
    equal(await runAdmin(["promote-vendor"], env, io().io), 2);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
