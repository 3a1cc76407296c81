/**
 * The tools through the real SDK client (`Client` + `StreamableHTTPClientTransport`, 1.x) with
 * an API key: initialize, list, call each one; unknown slugs and missing scopes come back as
 * tool errors that say what to do. The SDK client itself validates every `structuredContent`
 * against the tool's `outputSchema`, so a drift fails these tests.
 */
import assert from "node:assert/strict";
import { createBoard, createRoute } from "../../../app/mod.ts";
import { Client, type McpRig, mcpRig, StreamableHTTPClientTransport } from "./_rig.ts";
import { QUIET } from "../../../domain/mod.ts";
import { finishedAt } from "../../support/warnings.ts";

async function connect(rig: McpRig, key: string, header: "x-api-key" | "bearer" = "x-api-key") {
  const client = new Client({ name: "tools-test", version: "1.0.0" });
  const headers: Record<string, string> = header === "x-api-key"
    ? { "X-API-Key": key }
    : { Authorization: `Bearer ${key}` };
  const transport = new StreamableHTTPClientTransport(new URL(rig.mcpUrl), {
    requestInit: { headers },
  });
  await client.connect(transport);
  return client;
}

type Structured = Record<string, unknown>;

async function call(client: Client, name: string, args: Record<string, unknown>) {
  const r = await client.callTool({ name, arguments: args });
  const text = (r.content as { type: string; text: string }[])[0]?.text ?? "";
  return { isError: r.isError === true, data: r.structuredContent as Structured, text };
}

Deno.test("initialize and tools/list: eight read-only tools, five for monitors and vendors, two for alerts, with object schemas", async () => {
  const rig = await mcpRig();
  const client = await connect(rig, rig.keys.all);
  try {
    assert.deepStrictEqual(client.getServerVersion(), {
      name: "statusd",
      title: "statusd",
      version: "1.0.0",
    });
    assert.match(client.getInstructions() ?? "", /list_services/);
    const { tools } = await client.listTools();
    assert.deepStrictEqual(tools.map((t) => t.name), [
      "list_services",
      "get_service_status",
      "list_incidents",
      "get_component_status",
      "get_uptime_report",
      "get_service_history",
      "check_services",
      "identify_vendor",
      "list_monitors",
      "add_monitor",
      "add_vendor",
      "remove_monitor",
      "get_board_status",
      "list_alert_events",
      "acknowledge_alert",
    ]);
    const writes = new Set(["add_monitor", "add_vendor", "remove_monitor", "acknowledge_alert"]);
    for (const t of tools) {
      assert.match(t.name, /^[a-z][a-z0-9_]{0,63}$/);
      assert.equal(t.inputSchema.type, "object");
      assert.equal(t.outputSchema?.type, "object");
      assert.equal(t.annotations?.readOnlyHint, !writes.has(t.name), t.name);
      assert.ok((t.description ?? "").length > 40);
    }
    const hints = Object.fromEntries(tools.map((t) => [t.name, t.annotations]));
    assert.equal(hints.add_monitor?.destructiveHint, false);
    assert.equal(hints.remove_monitor?.destructiveHint, true);
    // /.well-known/mcp.json says the same of every tool.
    const manifest = await (await fetch(new URL("/.well-known/mcp.json", rig.mcpUrl))).json();
    for (const t of manifest.tools) {
      assert.deepStrictEqual(t.annotations, hints[t.name], t.name);
    }
  } finally {
    await client.close();
    await rig.close();
  }
});

Deno.test("tools/list shows a caller only the tools its scopes can call", async () => {
  const rig = await mcpRig();
  const client = await connect(rig, rig.keys.statusOnly);
  try {
    const { tools } = await client.listTools();
    assert.deepStrictEqual(tools.map((t) => t.name), [
      "list_services",
      "get_service_status",
      "get_component_status",
      "get_service_history",
      "check_services",
      "identify_vendor",
    ]);
  } finally {
    await client.close();
    await rig.close();
  }
});

Deno.test("the SDK client: 2025-11-25 agreed, listChanged false, unknown tool rejected with -32602", async () => {
  const rig = await mcpRig();
  const client = new Client({ name: "tools-test", version: "1.0.0" });
  const transport = new StreamableHTTPClientTransport(new URL(rig.mcpUrl), {
    requestInit: { headers: { "X-API-Key": rig.keys.all } },
  });
  try {
    await client.connect(transport);
    // The SDK asks for its newest revision; statusd follows its rules, so it is agreed and the
    // client sends it as MCP-Protocol-Version from then on (the calls below succeed with it).
    assert.equal(transport.protocolVersion, "2025-11-25");
    assert.deepStrictEqual(client.getServerCapabilities(), { tools: { listChanged: false } });
    const err = await client.callTool({ name: "get_weather", arguments: {} }).then(
      () => null,
      (e: unknown) => e as { code?: number; message?: string },
    );
    assert.ok(err !== null, "an unknown tool is a protocol error, not a result");
    assert.equal(err.code, -32602);
    assert.match(err.message ?? "", /Unknown tool "get_weather"/);
    const ok = await call(client, "get_service_status", { slug: "github" });
    assert.equal(ok.isError, false);
    // Bad arguments stay tool errors the model can read and correct (SEP-1303).
    const bad = await call(client, "get_service_status", { slug: 5 });
    assert.equal(bad.isError, true);
    assert.match(bad.text, /slug: .*expected string/);
  } finally {
    await client.close();
    await rig.close();
  }
});

Deno.test("list_services filters by status, category and q", async () => {
  const rig = await mcpRig();
  const client = await connect(rig, rig.keys.all, "bearer");
  try {
    const all = await call(client, "list_services", {});
    assert.equal(all.isError, false);
    assert.equal(all.data.total, 3);
    assert.deepStrictEqual(JSON.parse(all.text), all.data);
    const down = await call(client, "list_services", { status: "PARTIAL_OUTAGE" });
    assert.deepStrictEqual((down.data.services as Structured[]).map((s) => s.slug), ["github"]);
    const pay = await call(client, "list_services", { category: "payments" });
    assert.deepStrictEqual((pay.data.services as Structured[]).map((s) => s.slug), ["stripe"]);
    const q = await call(client, "list_services", { q: "cloud", limit: 1 });
    assert.deepStrictEqual((q.data.services as Structured[]).map((s) => s.name), ["Cloudflare"]);
    const bad = await call(client, "list_services", { status: "ON_FIRE" });
    assert.equal(bad.isError, true);
    // Slowest to admit trouble: only vendors with a grade (3 episodes in 90 days).
    const stripe = (await rig.ctx.store.catalog.service("stripe"))!.id;
    const now = rig.ctx.clock.now();
    await rig.ctx.store.warnings.record(stripe, {
      answered: {},
      state: QUIET,
      finished: [1, 2, 3].map((d) =>
        finishedAt(now - d * 86_400_000, 30, true, { hosts: ["api.stripe.com"] })
      ),
    }, now);
    const slow = await call(client, "list_services", { sort: "slowest_to_admit" });
    assert.deepStrictEqual((slow.data.services as Structured[]).map((s) => s.slug), ["stripe"]);
  } finally {
    await client.close();
    await rig.close();
  }
});

Deno.test("get_service_status: level, broken components, open incident; unknown slug suggests", async () => {
  const rig = await mcpRig();
  const client = await connect(rig, rig.keys.all);
  try {
    const gh = await call(client, "get_service_status", { slug: "github" });
    assert.equal(gh.data.status, "PARTIAL_OUTAGE");
    assert.deepStrictEqual(gh.data.components, {
      total: 3,
      notOperational: [{ name: "API Requests", group: null, status: "PARTIAL_OUTAGE" }],
    });
    const incidents = gh.data.openIncidents as Structured[];
    assert.equal(incidents.length, 1);
    assert.equal(incidents[0]!.title, "Degraded API performance");
    assert.equal((incidents[0]!.latestUpdate as Structured).body, "We are investigating.");

    const typo = await call(client, "get_service_status", { slug: "githb" });
    assert.equal(typo.isError, true);
    assert.equal(typo.data, undefined);
    assert.match(typo.text, /No service "githb"; did you mean "github"\?/);
  } finally {
    await client.close();
    await rig.close();
  }
});

Deno.test("list_incidents: active by default, per service, recent window", async () => {
  const rig = await mcpRig();
  const client = await connect(rig, rig.keys.all);
  try {
    const active = await call(client, "list_incidents", {});
    assert.equal(active.data.total, 1);
    assert.equal((active.data.incidents as Structured[])[0]!.service, "github");
    const none = await call(client, "list_incidents", { service: "stripe" });
    assert.deepStrictEqual(none.data, { incidents: [], total: 0 });
    const recent = await call(client, "list_incidents", { which: "recent", days: 1 });
    assert.equal(recent.data.total, 1);
    const unknown = await call(client, "list_incidents", { service: "strip" });
    assert.match(unknown.text, /did you mean "stripe"/);
  } finally {
    await client.close();
    await rig.close();
  }
});

Deno.test("get_component_status: all, by name or group, by status; unknown component named", async () => {
  const rig = await mcpRig();
  const client = await connect(rig, rig.keys.all);
  try {
    const all = await call(client, "get_component_status", { slug: "github" });
    assert.equal((all.data.components as Structured[]).length, 3);
    const api = await call(client, "get_component_status", { slug: "github", component: "api" });
    assert.deepStrictEqual((api.data.components as Structured[]).map((c) => c.name), [
      "API Requests",
    ]);
    const group = await call(client, "get_component_status", {
      slug: "github",
      component: "ACTIONS",
    });
    assert.deepStrictEqual((group.data.components as Structured[]).map((c) => c.group), [
      "Actions",
    ]);
    const ok = await call(client, "get_component_status", {
      slug: "github",
      status: "OPERATIONAL",
    });
    assert.equal((ok.data.components as Structured[]).length, 2);
    const missing = await call(client, "get_component_status", {
      slug: "github",
      component: "pages",
    });
    assert.equal(missing.isError, true);
    assert.match(missing.text, /No component of github "pages"; did you mean/);
  } finally {
    await client.close();
    await rig.close();
  }
});

Deno.test("get_uptime_report: ranges, days, MTTR and SLA against the account target", async () => {
  const rig = await mcpRig();
  const client = await connect(rig, rig.keys.all);
  try {
    const week = await call(client, "get_uptime_report", { slug: "github", range: "7d" });
    assert.equal(week.isError, false, week.text);
    assert.equal(week.data.days, 7);
    // 2 h major outage 3 days ago and 1 h at 30 % down now: (2 + 0.3) h down of 168 h.
    assert.equal(week.data.uptimePercent, Math.round((1 - 2.3 / 168) * 100000) / 1000);
    assert.equal(week.data.mttrMinutes, 120);
    const sla = week.data.sla as Structured;
    assert.equal(sla.targetPercent, 99.9);
    assert.equal(sla.met, false);
    assert.ok((sla.breaches as Structured[]).length > 0);
    const days = await call(client, "get_uptime_report", { slug: "stripe", days: 12 });
    assert.equal(days.data.days, 12);
    assert.equal(days.data.uptimePercent, 100);
    assert.equal((days.data.sla as Structured).met, true);
    assert.equal((days.data.standard as Structured).days90, 100);
    const both = await call(client, "get_uptime_report", { slug: "stripe", range: "7d", days: 12 });
    assert.equal(both.isError, true);
    const tooLong = await call(client, "get_uptime_report", { slug: "stripe", days: 365 });
    assert.equal(tooLong.isError, true);
  } finally {
    await client.close();
    await rig.close();
  }
});

Deno.test("get_service_history and check_services", async () => {
  const rig = await mcpRig();
  const client = await connect(rig, rig.keys.all);
  try {
    const h = await call(client, "get_service_history", { slug: "github", days: 4 });
    assert.deepStrictEqual(
      (h.data.entries as Structured[]).map((e) => e.worstStatus),
      // Outage at noon three days ago; partial outage since an hour ago today.
      ["MAJOR_OUTAGE", "OPERATIONAL", "OPERATIONAL", "PARTIAL_OUTAGE"],
    );
    const gate = await call(client, "check_services", { slugs: ["github", "stripe"] });
    assert.equal(gate.data.ok, false);
    assert.deepStrictEqual(
      (gate.data.services as Structured[]).map((s) => [s.slug, s.failed]),
      [["github", true], ["stripe", false]],
    );
    const lenient = await call(client, "check_services", {
      slugs: ["github"],
      failOn: "MAJOR_OUTAGE",
    });
    assert.equal(lenient.data.ok, true);
    const unknown = await call(client, "check_services", { slugs: ["github", "gthub"] });
    assert.equal(unknown.isError, true);
    assert.match(unknown.text, /did you mean "github"/);
  } finally {
    await client.close();
    await rig.close();
  }
});

Deno.test("a tool's own scope missing: a tool error naming it, other tools still work", async () => {
  const rig = await mcpRig();
  const client = await connect(rig, rig.keys.statusOnly);
  try {
    const inc = await call(client, "list_incidents", {});
    assert.equal(inc.isError, true);
    assert.match(inc.text, /requires the "incidents:read" scope/);
    const up = await call(client, "get_uptime_report", { slug: "github" });
    assert.match(up.text, /requires the "sla:read" scope/);
    const gh = await call(client, "get_service_status", { slug: "github" });
    assert.equal(gh.isError, false);
    assert.equal(gh.data.openIncidents, null);
  } finally {
    await client.close();
    await rig.close();
  }
});

Deno.test("monitors over MCP: add, list what is broken, remove; the write scope is required", async () => {
  const rig = await mcpRig();
  const client = await connect(rig, rig.keys.all);
  const limited = await connect(rig, rig.keys.statusOnly);
  try {
    const empty = await call(client, "list_monitors", {});
    assert.equal(empty.isError, false);
    assert.equal(empty.data.total, 0);
    const added = await call(client, "add_monitor", { service: "github", label: "code" });
    assert.equal(added.isError, false, added.text);
    assert.equal(added.data.service, "github");
    await call(client, "add_monitor", { service: "stripe" });
    const broken = await call(client, "list_monitors", { status: "PARTIAL_OUTAGE" });
    assert.deepStrictEqual(
      (broken.data.monitors as Structured[]).map((m) => m.service),
      ["github"],
    );
    const typo = await call(client, "add_monitor", { service: "githb" });
    assert.equal(typo.isError, true);
    assert.match(typo.text, /github/);
    const refused = await call(limited, "add_monitor", { service: "github" });
    assert.equal(refused.isError, true);
    assert.match(refused.text, /monitors:write/);
    const removed = await call(client, "remove_monitor", { id: added.data.id as string });
    assert.equal(removed.isError, false);
    assert.equal((await call(client, "list_monitors", {})).data.total, 1);
    const again = await call(client, "remove_monitor", { id: added.data.id as string });
    assert.equal(again.isError, true);

    // A board of the remaining monitor: readable by slug; unknown slugs are tool errors.
    const mine = (await call(client, "list_monitors", {})).data.monitors as Structured[];
    await createBoard(rig.ctx, { kind: "admin", account: rig.pro.account }, {
      slug: "pro-board",
      title: "Pro board",
      items: [{ kind: "monitor", id: mine[0]!.id as string }],
    });
    const board = await call(client, "get_board_status", { slug: "pro-board" });
    assert.equal(board.isError, false, board.text);
    assert.equal(board.data.title, "Pro board");
    assert.deepStrictEqual(
      (board.data.entries as Structured[]).map((e) => e.currentStatus),
      ["OPERATIONAL"],
    );
    assert.equal((await call(client, "get_board_status", { slug: "nope" })).isError, true);
  } finally {
    await client.close();
    await limited.close();
    await rig.close();
  }
});

Deno.test("alerts over MCP: list_alert_events, and acknowledge_alert stops waiting steps", async () => {
  const rig = await mcpRig();
  const client = await connect(rig, rig.keys.all);
  try {
    const admin = { kind: "admin", account: rig.pro.account } as const;
    const route = (await createRoute(rig.ctx, admin, {
      name: "pager",
      settings: { kind: "slack", url: "https://hooks.example.com/services/x" },
    })).route.id;
    const at = rig.clock.now();
    const message = {
      notificationId: "ntf_0123456789abcdef01234567",
      trigger: "status",
      summary: "GitHub has a major outage",
      level: "MAJOR_OUTAGE",
      previousLevel: "OPERATIONAL",
      service: null,
      components: [],
      componentsTotal: 0,
      incident: null,
      timeToResolve: null,
      advice: "Wait.",
      links: {},
      sentBecause: "rule r",
      at,
    } as const;
    await rig.ctx.store.deliveries.enqueue([0, 1, 2].map((step) => ({
      id: `dlv_step_${step}`,
      accountId: rig.pro.account.id,
      routeId: route,
      source: { kind: "rule" as const, id: "rule_1" },
      changeId: 1,
      notificationId: message.notificationId,
      subject: "monitor:m",
      step,
      recovery: false,
      message,
      notBefore: at + step * 300_000,
      createdAt: at,
    })));
    const listed = await call(client, "list_alert_events", { state: "pending" });
    assert.equal(listed.isError, false, listed.text);
    assert.equal(listed.data.total, 3);
    const acked = await call(client, "acknowledge_alert", { id: "dlv_step_0" });
    assert.equal(acked.isError, false, acked.text);
    assert.equal(acked.data.stopped, 2, "the two steps not yet due");
    const limited = await connect(rig, rig.keys.statusOnly);
    try {
      const refused = await call(limited, "acknowledge_alert", { id: "dlv_step_0" });
      assert.match(refused.text, /requires the "alerts:write" scope/);
    } finally {
      await limited.close();
    }
  } finally {
    await client.close();
    await rig.close();
  }
});
