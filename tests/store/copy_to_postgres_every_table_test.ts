/**
 * `statusd admin copy-to-postgres` with every table in use: a SQLite installation seeded through
 * the store port and the app's verbs (polls with components, an incident and its updates, the
 * fetch log and latency summary, the change feed, an account signing in, a session, a key, an
 * OAuth client with a redeemed and an unused code, a monitor, a group, a board, an idempotent
 * answer) reads back the same on PostgreSQL after the copy, and keeps working there: a new reading
 * appends changes after the copied ones, so an SSE client's `Last-Event-ID` from before the move
 * still resumes exactly. Copied again in batches of two rows, every table's batches are read
 * from where the last one ended without losing or repeating a row.
 */
import { deepStrictEqual, equal, ok } from "node:assert/strict";
import { join } from "node:path";
import {
  type AppContext,
  authenticate,
  createAppContext,
  createKey,
  listIncidents,
  resolveSession,
  servicePageData,
  serviceUptime,
  signIn,
  startSession,
} from "../../app/mod.ts";
import { type AdminIo, runAdmin } from "../../cli/admin/mod.ts";
import { DAY_MS, fixedClock, HOUR_MS, type Store } from "../../domain/mod.ts";
import { silentLogger } from "../../log.ts";
import { openSqliteStore } from "../../store/mod.ts";
import { TEST_COMMIT_WINDOWS } from "../support/store.ts";
import { copySqliteToPostgres } from "../../store/copy_to_postgres.ts";
import { openPostgresStore } from "../../store/postgres/mod.ts";
import { account as testAccount, PASSWORD } from "../support/accounts.ts";
import { freshDatabase, postgresAvailable } from "../support/postgres.ts";
import { recordReading, syncVendors, vendorOf } from "../support/seed.ts";
import { component, incident, snapshot } from "./conformance/_support.ts";
import { finishedAt } from "../support/warnings.ts";

const T0 = Date.UTC(2026, 10, 20, 12);
const EMAIL = "ops@example.com";

function ctxOver(store: Store): AppContext {
  return createAppContext({
    store,
    clock: fixedClock(T0),
    log: silentLogger,
    settings: { publicUrl: "http://localhost", pollStableSeconds: 300, pollMovingSeconds: 60 },
  });
}

/** A history on SQLite through the poll port: first reading, an outage with an incident, recovery. */
async function seedReadings(store: Store): Promise<void> {
  await syncVendors(
    store,
    [vendorOf({ slug: "acme" }), vendorOf({ slug: "zeta" })],
    T0 - 6 * DAY_MS,
  );
  const calm = [component("api"), component("web")];
  await recordReading(store, "acme", snapshot("OPERATIONAL", calm), T0 - 5 * DAY_MS);
  await recordReading(store, "zeta", snapshot("OPERATIONAL"), T0 - 5 * DAY_MS);
  const started = T0 - 3 * DAY_MS;
  const open = incident("inc-1", started, { componentIds: ["api"] });
  await recordReading(
    store,
    "acme",
    snapshot("MAJOR_OUTAGE", [component("api", "MAJOR_OUTAGE"), component("web")], [open]),
    started,
  );
  const fixed = started + 2 * HOUR_MS;
  const resolved = (first: typeof open.updates[number]) =>
    snapshot("OPERATIONAL", calm, [{
      ...open,
      status: "RESOLVED",
      updatedAt: fixed,
      resolvedAt: fixed,
      updates: [first, { at: fixed, status: "RESOLVED", body: "Fixed" }],
    }]);
  await recordReading(store, "acme", resolved(open.updates[0]!), fixed);
  // The vendor then edits its first update: a revision is kept.
  await recordReading(
    store,
    "acme",
    resolved({ ...open.updates[0]!, body: "Some requests failed" }),
    fixed + HOUR_MS,
  );
  await recordReading(
    store,
    "acme",
    snapshot("DEGRADED_PERFORMANCE", [component("api"), component("web", "DEGRADED_PERFORMANCE")]),
    T0 - HOUR_MS,
  );
}

/** An OAuth client, a grant with its token pair from a redeemed code, and a code not yet used. */
async function seedOAuth(store: Store, accountId: string, memberId: string): Promise<void> {
  await store.oauth.registerClient({
    id: "sdc_copy",
    secretHash: null,
    name: "Claude",
    redirectUris: ["http://127.0.0.1/callback"],
    authMethod: "none",
    metadata: { client_name: "Claude" },
    createdAt: T0 - DAY_MS,
  });
  const code = (codeHash: string) => ({
    codeHash,
    clientId: "sdc_copy",
    accountId,
    memberId,
    redirectUri: "http://127.0.0.1/callback",
    codeChallenge: "c".repeat(43),
    scopes: ["mcp:invoke", "status:read"] as const,
    resource: "http://localhost/api/mcp",
    createdAt: T0 - 10_000,
    expiresAt: T0 + 300_000,
  });
  await store.oauth.issueCode(code("code-redeemed"), T0 - DAY_MS);
  await store.oauth.issueCode(code("code-waiting"), T0 - DAY_MS);
  equal(
    await store.oauth.redeemCode({
      codeHash: "code-redeemed",
      at: T0 - 5_000,
      grant: {
        id: "grant-1",
        clientId: "sdc_copy",
        accountId,
        memberId,
        scopes: ["mcp:invoke", "status:read"],
        resource: "http://localhost/api/mcp",
        createdAt: T0 - 5_000,
      },
      tokens: [
        {
          tokenHash: "access-1",
          grantId: "grant-1",
          kind: "access",
          scopes: ["mcp:invoke"],
          createdAt: T0 - 5_000,
          expiresAt: T0 + HOUR_MS,
        },
        {
          tokenHash: "refresh-1",
          grantId: "grant-1",
          kind: "refresh",
          scopes: ["mcp:invoke", "status:read"],
          createdAt: T0 - 5_000,
          expiresAt: T0 + 30 * DAY_MS,
        },
      ],
    }),
    "redeemed",
  );
}

/** A monitor, a group holding it, a public board showing the group, an idempotent answer. */
async function seedAccountDocs(store: Store, accountId: string): Promise<void> {
  await store.monitors.create({
    id: "mon_1",
    accountId,
    serviceSlug: "acme",
    components: ["API"],
    label: "checkout",
    slaTarget: 99.5,
    paused: false,
    createdAt: T0 - DAY_MS,
  }, null);
  await store.groups.create({
    id: "grp_1",
    accountId,
    name: "payments path",
    monitorIds: ["mon_1"],
    createdAt: T0 - DAY_MS,
  }, null);
  await store.boards.create({
    id: "brd_1",
    accountId,
    slug: "acme-stack",
    title: "Acme's stack",
    public: true,
    items: [{ kind: "group", id: "grp_1" }],
    createdAt: T0 - DAY_MS,
  }, null);
  deepStrictEqual(
    await store.idempotency.begin(accountId, "create-1", "fp-1", T0 - HOUR_MS, T0 - DAY_MS),
    { state: "started" },
  );
  await store.idempotency.finish(accountId, "create-1", {
    status: 201,
    body: '{"id":"mon_1"}',
    location: "/api/user/monitors/mon_1",
  });
  await store.alertRoutes.create({
    id: "rt_1",
    accountId,
    name: "hooks",
    settings: { kind: "webhook", url: "https://hooks.example.com/x", secret: "whsec_x" },
    paused: null,
    failuresInARow: 0,
    createdAt: T0 - DAY_MS,
  }, null);
  await store.alertRoutes.recordOutcome(accountId, "rt_1", {
    ok: false,
    at: T0 - DAY_MS,
    pauseAfter: 5,
    reason: "HTTP 503",
  });
  await store.deliveries.enqueue([{
    id: "dlv_1",
    accountId,
    routeId: "rt_1",
    source: { kind: "test", id: null },
    changeId: null,
    notificationId: "ntf_1",
    subject: null,
    step: 0,
    recovery: false,
    message: {
      notificationId: "ntf_1",
      trigger: "test",
      summary: "Test",
      level: "OPERATIONAL",
      previousLevel: null,
      service: null,
      components: [],
      componentsTotal: 0,
      incident: null,
      timeToResolve: null,
      advice: "",
      links: {},
      sentBecause: "hooks",
      at: T0 - HOUR_MS,
    },
    notBefore: T0 - HOUR_MS,
    createdAt: T0 - HOUR_MS,
  }], { cursor: { name: "evaluator", from: 0, to: 3 } });
  await store.deliveries.claimDue(T0 - HOUR_MS, 1, "copy-test", 60_000);
  await store.deliveries.finish("dlv_1", "copy-test", {
    n: 1,
    at: T0 - HOUR_MS,
    ok: true,
    status: 200,
    reply: "ok",
    latencyMs: 9,
    error: null,
  }, { state: "delivered", notBefore: T0 - HOUR_MS, error: null });
  await store.mail.requestConsent(accountId, "oncall@example.com", "consent-hash", T0 - HOUR_MS);
  await store.mail.suppress("gone@example.com", { reason: "bounced", at: T0 - HOUR_MS });
  await store.mail.secret("acknowledge", () => "server-secret");
  // statusd's own eyes: a warning's memory, two finished episodes, two reports.
  await store.catalog.addVendor(
    accountId,
    {
      name: "Crisp",
      slug: "crisp",
      statusPageUrl: "https://status.crisp.test",
      platform: "statuspage",
      domains: [],
    },
    T0 - HOUR_MS,
    10,
  );
  const acme = (await store.catalog.service("acme"))!.id;
  await store.warnings.record(acme, {
    answered: { "https://acme.test/": T0 - HOUR_MS },
    state: { lastRound: { at: T0 - HOUR_MS, failing: false }, failingSince: null, episode: null },
    finished: [finishedAt(T0 - 2 * DAY_MS, 10), finishedAt(T0 - DAY_MS, 10)],
  }, T0 - HOUR_MS);
  for (const id of ["rep_1", "rep_2"]) {
    await store.warnings.addReport({
      id,
      accountId,
      reporter: EMAIL,
      slug: "acme",
      component: null,
      note: id,
      at: T0 - HOUR_MS,
      standingSince: T0 - 8 * 24 * HOUR_MS,
    }, 0);
  }
}

/** Everything a user could see of the seeded installation, read through the app and the port. */
async function observe(ctx: AppContext, ids: { account: string; session: string; key: string }) {
  const store = ctx.store;
  const anyone = { kind: "anonymous" } as const;
  const page = { page: 0, limit: 50 };
  const signedIn = await signIn(ctx, EMAIL, PASSWORD);
  const session = await resolveSession(ctx, ids.session);
  const key = await authenticate(ctx, ids.key);
  return {
    uptime: await serviceUptime(ctx, anyone, "acme"),
    servicePage: await servicePageData(ctx, "acme"),
    incidents: await listIncidents(ctx, {}, page),
    fetchLog: await store.history.fetchLog("acme", T0 - 10 * DAY_MS),
    sla: await store.history.slaInputs(
      "acme",
      { start: T0 - 10 * DAY_MS, end: T0 },
      { start: T0 - 10 * DAY_MS, end: T0 },
    ),
    changes: await store.changes.after(0, 1_000),
    signedIn: signedIn.member.id,
    session: session && { member: session.principal.member.id, csrf: session.csrfToken },
    key: key.kind === "api_key" ? key.account.id : key.kind,
    oauthClient: await store.oauth.client("sdc_copy"),
    oauthToken: await store.oauth.token("access-1"),
    oauthRefresh: await store.oauth.token("refresh-1"),
    oauthCodes: [await store.oauth.code("code-redeemed"), await store.oauth.code("code-waiting")],
    monitors: await store.monitors.list(ids.account, page),
    groups: await store.groups.list(ids.account, page),
    board: await store.boards.bySlug("acme-stack"),
    idempotent: await store.idempotency.begin(ids.account, "create-1", "fp-2", T0, T0 - DAY_MS),
    routes: await store.alertRoutes.list(ids.account, page),
    delivery: await store.deliveries.get(ids.account, "dlv_1"),
    cursor: await store.deliveries.cursor("evaluator"),
    consents: [...await store.mail.consents(ids.account, ["oncall@example.com"])],
    suppressions: [...await store.mail.suppressions(["gone@example.com"])],
    secret: await store.mail.secret("acknowledge", () => "made anew"),
    warning: await store.warnings.of("acme"),
    addedVendors: await store.catalog.accountVendors(ids.account),
    episodes: await store.warnings.episodes("acme", 0),
    reports: await store.warnings.reportsOf(ids.account, 10),
  };
}

Deno.test({
  name:
    "copy-to-postgres copies every table: what the installation showed on SQLite it shows on PostgreSQL, and new changes follow the copied ones",
  ignore: !postgresAvailable() && !Deno.env.get("CI"),
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const dir = await Deno.makeTempDir();
    const path = join(dir, "statusd.db");
    const db = await freshDatabase();
    const small = await freshDatabase();
    try {
      const sqlite = openSqliteStore(path, { commitWindows: TEST_COMMIT_WINDOWS });
      const ctx = ctxOver(sqlite);
      await seedReadings(sqlite);
      const { account, member } = await testAccount(ctx, EMAIL, "PRO");
      const { sessionId } = await startSession(ctx, { account, member });
      const { secret } = await createKey(ctx, { kind: "admin", account }, {
        name: "ci",
        scopes: ["status:read"],
      });
      await seedOAuth(sqlite, account.id, member.id);
      await seedAccountDocs(sqlite, account.id);
      const ids = { account: account.id, session: sessionId, key: secret };
      const before = await observe(ctx, ids);
      await ctx.keyUses.flush();
      await sqlite.close();
      ok(before.session !== null && before.oauthToken !== null, "the fixture is complete");
      equal(before.idempotent.state, "done");

      const out: string[] = [];
      const err: string[] = [];
      const io: AdminIo = {
        stdin: () => Promise.resolve(""),
        out: (l) => out.push(l),
        err: (l) => err.push(l),
      };
      equal(
        await runAdmin(["copy-to-postgres", "--to", db.url], { STATUSD_DB: path }, io),
        0,
        err.join("\n"),
      );
      const counts = out.flatMap((l) => {
        const m = /^(\w+)\t(\d+)$/.exec(l);
        return m ? [[m[1]!, Number(m[2])] as const] : [];
      });
      ok(counts.length >= 19, out.join("\n"));
      const empty = counts.filter(([, n]) => n === 0).map(([t]) => t);
      // A table added to the copy must be seeded above, so this test proves it survives the move.
      deepStrictEqual(empty, [], `tables this fixture leaves empty: ${empty.join(", ")}`);

      const pg = await openPostgresStore(db.url);
      try {
        const pgCtx = ctxOver(pg);
        const after = await observe(pgCtx, ids);
        for (const key of Object.keys(before) as (keyof typeof before)[]) {
          deepStrictEqual(after[key], before[key], `${key} differs after the copy`);
        }

        // The installation goes on: a new reading's changes come after every copied one.
        const lastCopied = before.changes.at(-1)!.id;
        equal(await pg.changes.latestId(), lastCopied);
        const fresh = await recordReading(
          pg,
          "acme",
          snapshot("MAJOR_OUTAGE", [component("api", "MAJOR_OUTAGE"), component("web")]),
          T0,
        );
        ok(fresh.length > 0, "the new reading is a change");
        deepStrictEqual(await pg.changes.after(lastCopied, 100), fresh);
        ok(fresh.every((c) => c.id > lastCopied), "new change ids follow the copied ones");
        await pgCtx.keyUses.flush();
      } finally {
        await pg.close();
      }

      // The same file in batches of two rows: every table crosses batch boundaries, the
      // latency summary (no rowid) on its composite key.
      const report = await copySqliteToPostgres(path, small.url, { batchRows: 2 });
      deepStrictEqual(report.map((r) => [r.table, r.rows]), counts);
      const pgSmall = await openPostgresStore(small.url);
      try {
        const again = await observe(ctxOver(pgSmall), ids);
        for (const key of Object.keys(before) as (keyof typeof before)[]) {
          deepStrictEqual(again[key], before[key], `${key} differs after a copy in small batches`);
        }
      } finally {
        await pgSmall.close();
      }
    } finally {
      await small.drop();
      await db.drop();
      await Deno.remove(dir, { recursive: true });
    }
  },
});
