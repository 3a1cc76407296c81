/**
 * Policy in one place: each verb checks its own declared access (credential, scopes, plan), so
 * REST, MCP, pages and admin cannot disagree; OpenAPI's `x-required-scopes` is read from the
 * same declarations.
 */
import { deepStrictEqual, equal, rejects, throws } from "node:assert/strict";
import {
  authorize,
  callerAccount,
  LIST_KEYS,
  listKeys,
  mcpCaller,
  READ_SERVICE_HISTORY,
  READ_SLA_REPORT,
  REVOKE_KEYS,
  serviceHistory,
  slaReport,
  USE_MCP,
  WRITE_ALERTS,
  WRITE_MONITORS,
  WRITE_SUBSCRIPTIONS,
} from "../../app/mod.ts";
import {
  ANONYMOUS,
  Forbidden,
  InsufficientScope,
  type Plan,
  PlanRequired,
  type Principal,
  type Scope,
  Unauthorized,
} from "../../domain/mod.ts";
import { createServer } from "../../routes/mod.ts";
import { account, key, T0, testContext } from "../support/accounts.ts";
import { addVendor } from "../support/seed.ts";

const acct = { id: "a", name: "A", plan: "PRO" as const, slaTarget: 99.9, createdAt: T0 };
const keyWith = (scopes: Scope[], plan: Plan = "PRO"): Principal => ({
  kind: "api_key",
  keyId: "k",
  account: { ...acct, plan },
  scopes,
});

Deno.test("authorize: credential, then each scope, then the plan of keys and tokens", () => {
  throws(() => authorize(ANONYMOUS, LIST_KEYS), Unauthorized);
  authorize(ANONYMOUS, READ_SERVICE_HISTORY); // optional: anonymous callers allowed
  throws(
    () => authorize(keyWith(["sla:read"]), LIST_KEYS),
    (e) => e instanceof InsufficientScope && e.requiredScope === "account:read",
  );
  authorize(keyWith(["account:read"]), LIST_KEYS);
  throws(
    () => authorize(keyWith(["account:read"], "FREE"), LIST_KEYS),
    (e) => e instanceof PlanRequired && e.requiredPlan === "PRO",
  );
  const session: Principal = {
    kind: "session",
    account: { ...acct, plan: "FREE" },
    member: { id: "m", accountId: "a", email: "m@x.test", role: "OWNER" },
  };
  authorize(session, LIST_KEYS); // people reach their own settings on any plan
  authorize({ kind: "admin", account: acct }, READ_SLA_REPORT);
});

Deno.test("authorize: a signed-in person below an operation's role is refused with its words; keys are bounded by scopes", () => {
  const person = (role: "OWNER" | "ADMIN" | "MEMBER"): Principal => ({
    kind: "session",
    account: acct,
    member: { id: "m", accountId: "a", email: "m@x.test", role },
  });
  for (
    const [access, words] of [
      [WRITE_ALERTS, "Only the account's owners and admins can change its alerting"],
      [WRITE_MONITORS, "Only the account's owners and admins can change its monitors"],
      [WRITE_SUBSCRIPTIONS, "Only the account's owners and admins can change its subscriptions"],
      [REVOKE_KEYS, "Only account owners and admins can revoke API keys."],
    ] as const
  ) {
    throws(
      () => authorize(person("MEMBER"), access),
      (e) => e instanceof Forbidden && e.message === words,
    );
    authorize(person("ADMIN"), access);
    authorize(person("OWNER"), access);
    authorize({ kind: "admin", account: acct }, access);
  }
  authorize(keyWith(["alerts:write"]), WRITE_ALERTS); // a key holding the scope may write
  equal(callerAccount(person("ADMIN"), WRITE_ALERTS), acct);
  throws(() => callerAccount(ANONYMOUS, READ_SERVICE_HISTORY), Forbidden);
});

Deno.test("verbs check their own access, whoever calls them", async () => {
  await using ctx = testContext();
  await addVendor(ctx.store, { slug: "acme", status: "OPERATIONAL" }, T0);
  await rejects(
    () => serviceHistory(ctx, keyWith(["sla:read"]), "acme", 7),
    (e) => e instanceof InsufficientScope && e.requiredScope === "status:read",
  );
  equal((await serviceHistory(ctx, keyWith(["status:read"]), "acme", 7)).entries.length, 7);
  equal((await serviceHistory(ctx, ANONYMOUS, "acme", 7)).slug, "acme");
  await rejects(() => slaReport(ctx, ANONYMOUS, "acme", 7), Unauthorized);
  await rejects(() => slaReport(ctx, keyWith(["sla:read"], "FREE"), "acme"), PlanRequired);
  await rejects(() => listKeys(ctx, keyWith(["status:read"])), InsufficientScope);
});

Deno.test("the MCP gate is a verb: a key or token holding mcp:invoke, on the Pro plan", async () => {
  await using ctx = testContext();
  const pro = await account(ctx, "pro@x.test", "PRO");
  await rejects(() => mcpCaller(ctx, null), Unauthorized);
  await rejects(() => mcpCaller(ctx, "sd_live_" + "A".repeat(43)), Unauthorized);
  await rejects(
    () => key(ctx, pro, "reader", ["status:read"]).then((k) => mcpCaller(ctx, k)),
    (e) => e instanceof InsufficientScope && e.requiredScope === "mcp:invoke",
  );
  const agent = await key(ctx, pro, "agent", ["mcp:invoke", "status:read"]);
  equal((await mcpCaller(ctx, agent)).kind, "api_key");
  await ctx.store.accounts.setPlan(pro.account.id, "FREE");
  await rejects(() => mcpCaller(ctx, agent), PlanRequired);
  deepStrictEqual(USE_MCP.scopes, ["mcp:invoke"]);
});

Deno.test("x-required-scopes in OpenAPI is each verb's own declaration", async () => {
  // Closed at the end: the server's response cache opens the store to follow its changes (on
  // PostgreSQL a connection the process would otherwise leave open until its database is dropped).
  await using ctx = testContext();
  const app = createServer({ app: ctx });
  const doc = app.getOpenAPI31Document({ openapi: "3.1.0", info: { title: "t", version: "1" } });
  const scopes = (path: string) =>
    (doc.paths![path]!.get as unknown as Record<string, unknown>)["x-required-scopes"];
  deepStrictEqual(scopes("/api/user/api-keys"), LIST_KEYS.scopes);
  deepStrictEqual(scopes("/api/user/services/{slug}/sla"), READ_SLA_REPORT.scopes);
  deepStrictEqual(scopes("/api/services/{slug}/history"), READ_SERVICE_HISTORY.scopes);
  deepStrictEqual(scopes("/api/services/{slug}/uptime"), READ_SERVICE_HISTORY.scopes);
  // The role people need is shown next to the scopes, from the same declaration.
  const op = (path: string, method: "get" | "post") =>
    doc.paths![path]![method] as unknown as Record<string, unknown>;
  equal(op("/api/user/alert-rules", "post")["x-required-role"], WRITE_ALERTS.role!.least);
  equal(op("/api/user/monitors", "post")["x-required-role"], "ADMIN");
  equal(op("/api/user/alert-rules", "get")["x-required-role"], undefined);
});
