/**
 * Alert delivery end to end (issue #13): a delivery in the outbox is rendered for its route and
 * sent by the worker to a loopback receiver that checks the platform's documented fields — a
 * Standard Webhooks signature verified by the `standardwebhooks` library, Slack Block Kit,
 * Discord embeds, a Teams Adaptive Card, PagerDuty trigger and resolve, and email through a real
 * SMTP server parsed by mailparser. Then what goes wrong: 429 with Retry-After and 5xx retried
 * with backoff, 404 failed at once, private addresses refused, a route paused after repeated
 * failures (and the account told), and a hanging destination delaying no other.
 */
import { deepStrictEqual, equal, match, ok } from "node:assert/strict";
import { Webhook } from "standardwebhooks";
import type {
  AlertMessage,
  EpochMs,
  NewDelivery,
  RouteSettingsData,
  Store,
} from "../../domain/mod.ts";
import { NO_PRIVATE_ADDRESSES, parseAllowance } from "../../lib/mod.ts";
import { createHttpSender } from "../../outbound/send_http.ts";
import { createMailSender } from "../../outbound/send_mail.ts";
import { createDeliveryWorker } from "../../outbound/worker.ts";
import { silentLogger } from "../../log.ts";
import { accountOf, memberOf } from "../store/conformance/accounts.ts";
import { startReceivers } from "../support/receivers.ts";
import { startSmtp } from "../support/smtp.ts";
import { memoryStore } from "../support/store.ts";

// Payloads are read field by field.
// deno-lint-ignore no-explicit-any
type Json = any;

// Now: Standard Webhooks receivers refuse signatures more than 5 minutes off their clock.
const T0 = Math.floor(Date.now() / 1000) * 1000;
const SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
const ROUTING_KEY = "R0ut1ngK3yR0ut1ngK3yR0ut1ngK3y12";
const LOOPBACK = (() => {
  const r = parseAllowance("127.0.0.1");
  if (!r.ok) throw new Error("allowance");
  return r.allowance;
})();

function message(over: Partial<AlertMessage> = {}): AlertMessage {
  return {
    notificationId: "ntf_gh_1",
    trigger: "status",
    summary: "GitHub has a major outage",
    level: "MAJOR_OUTAGE",
    previousLevel: "OPERATIONAL",
    service: {
      slug: "github",
      name: "GitHub",
      vendorUrl: "https://www.githubstatus.com",
      statusdUrl: "https://status.example.com/services/github",
    },
    components: [{ name: "Git Operations", level: "MAJOR_OUTAGE" }],
    componentsTotal: 1,
    incident: {
      id: "inc_1",
      title: "Degraded Git operations <script>alert(1)</script> @everyone",
      status: "INVESTIGATING",
      impact: "MAJOR",
      latestUpdate: "We are investigating " + "x".repeat(9_000),
      url: "https://www.githubstatus.com/incidents/abc",
    },
    timeToResolve: { impact: "MAJOR", p50Minutes: 38, p90Minutes: 130, sample: 12 },
    advice: "Pushes and pulls may fail; retry later or pause deploys.",
    links: { acknowledge: "https://status.example.com/ack/tok" },
    sentBecause: "rule Core stack down",
    at: T0,
    ...over,
  };
}

async function rig(routes: Record<string, RouteSettingsData>, opts: { allow?: boolean } = {}) {
  const store: Store = memoryStore();
  await store.accounts.create(accountOf("a1"), memberOf("m1", "a1", "one@x.test"));
  for (const [id, settings] of Object.entries(routes)) {
    await store.alertRoutes.create({
      id,
      accountId: "a1",
      name: id,
      settings,
      paused: null,
      failuresInARow: 0,
      createdAt: T0,
    }, null);
    // Each address of an email route confirmed it, as its owner would from the mailed link.
    for (const to of settings.kind === "email" ? settings.to as string[] : []) {
      await store.mail.requestConsent("a1", to.toLowerCase(), `consent_${to}`, T0);
      await store.mail.confirm(`consent_${to}`, T0);
    }
  }
  let now: EpochMs = T0;
  const clock = { now: () => now };
  const http = createHttpSender({
    timeoutMs: 1_500,
    allowPrivate: opts.allow === false ? NO_PRIVATE_ADDRESSES : LOOPBACK,
  });
  const smtp = await startSmtp();
  const mail = createMailSender({
    smtpUrl: smtp.url,
    from: "statusd <alerts@example.com>",
    timeoutMs: 5_000,
  });
  const worker = createDeliveryWorker({
    store,
    http,
    mail,
    clock,
    log: silentLogger,
    instanceId: "test",
    options: { random: () => 0.5 },
  });
  const enqueue = (id: string, routeId: string, over: Partial<NewDelivery> = {}) =>
    store.deliveries.enqueue([{
      id,
      accountId: "a1",
      routeId,
      source: { kind: "rule", id: "rule_1" },
      changeId: 1,
      notificationId: "ntf_gh_1",
      subject: "monitor:m1",
      step: 0,
      recovery: false,
      message: message(),
      notBefore: now,
      createdAt: now,
      ...over,
    }]);
  /** Runs rounds until nothing is due and nothing is in flight. */
  const drain = async () => {
    for (let i = 0; i < 20; i++) {
      const n = await worker.runOnce();
      await worker.stop();
      if (n === 0) return;
    }
  };
  const state = async (id: string) => (await store.deliveries.get("a1", id))!;
  return {
    store,
    worker,
    smtp,
    enqueue,
    drain,
    state,
    advance: (ms: number) => (now += ms),
    async close() {
      http.close();
      mail.close();
      await smtp.close();
    },
  };
}

Deno.test("each channel's payload reaches its receiver and passes its documented checks", async () => {
  const rx = startReceivers();
  const r = await rig({
    hook: { kind: "webhook", url: `${rx.origin}/webhook`, secret: SECRET },
    slack: { kind: "slack", url: `${rx.origin}/slack` },
    discord: { kind: "discord", url: `${rx.origin}/discord` },
    teams: { kind: "teams", url: `${rx.origin}/teams` },
    pd: { kind: "pagerduty", routingKey: ROUTING_KEY, endpoint: `${rx.origin}/pagerduty` },
    mail: { kind: "email", to: ["oncall@example.com"] },
  });
  try {
    for (const route of ["hook", "slack", "discord", "teams", "pd", "mail"]) {
      await r.enqueue(`dlv_${route}`, route);
    }
    await r.enqueue("dlv_pd_resolve", "pd", {
      recovery: true,
      message: message({ trigger: "recovered", level: "OPERATIONAL" }),
    });
    await r.drain();
    for (const route of ["hook", "slack", "discord", "teams", "pd", "pd_resolve", "mail"]) {
      const s = await r.state(`dlv_${route}`);
      equal(s.delivery.state, "delivered", `${route}: ${s.delivery.lastError}`);
      equal(s.attempts.length, 1);
    }
    // Webhook: verified by the standardwebhooks library itself; its id is the delivery's.
    const [hook] = rx.on("/webhook");
    const verified = new Webhook(SECRET).verify(hook!.body, hook!.headers) as {
      type: string;
      id: string;
      data: AlertMessage;
    };
    equal(verified.type, "alert.status");
    equal(verified.id, "dlv_hook");
    equal(hook!.headers["webhook-id"], "dlv_hook");
    equal(verified.data.service!.slug, "github");
    // Slack: escaped, within limits (the receiver checked), with the vendor and statusd links.
    const slack = rx.on("/slack")[0]!;
    equal(slack.status, 200);
    ok(!slack.body.includes("<script>"), "vendor text cannot inject mrkdwn links");
    match(slack.body, /&lt;script&gt;/);
    match(slack.body, /GitHub major incidents usually resolve in 38 min, p90 2 h 10 min/);
    match(slack.body, /<https:\/\/www\.githubstatus\.com\|GitHub status page>/);
    // Discord: no mentions, escaped @everyone.
    const discord = rx.on("/discord")[0]!.json as Json;
    deepStrictEqual(discord.allowed_mentions, { parse: [] });
    ok(!JSON.stringify(discord).includes(" @everyone"));
    equal(rx.on("/teams")[0]!.status, 200);
    // PagerDuty: trigger then resolve of one dedup key.
    const pd = rx.on("/pagerduty").map((x) => x.json as Json);
    deepStrictEqual(pd.map((e) => [e.event_action, e.dedup_key]), [
      ["trigger", "ntf_gh_1"],
      ["resolve", "ntf_gh_1"],
    ]);
    equal(pd[0]!.payload.severity, "critical");
    ok(pd[0]!.payload.summary.length <= 1024);
    // Email: parsed by mailparser.
    const [mail] = r.smtp.messages;
    equal(mail!.subject, "GitHub has a major outage");
    match(mail!.text!, /Latest update: We are investigating x+…/);
    ok(!mail!.html || !String(mail!.html).includes("<script>alert"), "HTML escaped");
    match(String(mail!.html), /&lt;script&gt;/);
    equal(mail!.to && !Array.isArray(mail!.to) ? mail!.to.text : "", "oncall@example.com");
  } finally {
    await r.close();
    await rx.close();
  }
});

Deno.test("an unsubscribe link becomes List-Unsubscribe with one-click POST", async () => {
  const r = await rig({ mail: { kind: "email", to: ["me@example.com"] } });
  try {
    await r.enqueue("dlv_sub", "mail", {
      message: message({ links: { unsubscribe: "https://status.example.com/unsubscribe/tok" } }),
    });
    await r.drain();
    const [mail] = r.smtp.messages;
    const line = (key: string) => mail!.headerLines.find((h) => h.key === key)?.line ?? "";
    equal(line("list-unsubscribe-post"), "List-Unsubscribe-Post: List-Unsubscribe=One-Click");
    equal(
      line("list-unsubscribe"),
      "List-Unsubscribe: <https://status.example.com/unsubscribe/tok>",
    );
  } finally {
    await r.close();
  }
});

Deno.test("429 waits as Retry-After asks, 5xx backs off, then it is delivered once", async () => {
  const rx = startReceivers();
  const r = await rig({ slack: { kind: "slack", url: `${rx.origin}/slack` } });
  try {
    rx.script("/slack", { answer: 429, retryAfter: 120 }, { answer: 503 });
    await r.enqueue("dlv_1", "slack");
    await r.drain();
    let s = await r.state("dlv_1");
    equal(s.delivery.state, "pending");
    equal(s.delivery.notBefore, T0 + 120_000, "Retry-After (120 s) beats the 30 s backoff");
    r.advance(60_000);
    await r.drain();
    equal(rx.on("/slack").length, 1, "not before the receiver asked");
    r.advance(60_000);
    await r.drain();
    s = await r.state("dlv_1");
    equal(s.delivery.state, "pending");
    equal(s.attempts[1]!.status, 503);
    equal(s.delivery.notBefore, T0 + 120_000 + 60_000, "second backoff: 60 s");
    r.advance(60_000);
    await r.drain();
    s = await r.state("dlv_1");
    equal(s.delivery.state, "delivered");
    deepStrictEqual(s.attempts.map((a) => a.status), [429, 503, 200]);
    equal(rx.on("/slack").length, 3);
  } finally {
    await r.close();
    await rx.close();
  }
});

Deno.test("404 fails at once; five failures in a row pause the route and tell the account", async () => {
  const rx = startReceivers();
  const r = await rig({
    broken: { kind: "slack", url: `${rx.origin}/slack` },
    other: { kind: "webhook", url: `${rx.origin}/webhook`, secret: SECRET },
  });
  try {
    rx.script("/slack", ...Array.from({ length: 5 }, () => ({ answer: 404 as const })));
    for (let i = 0; i < 5; i++) await r.enqueue(`dlv_${i}`, "broken");
    await r.drain();
    for (let i = 0; i < 5; i++) {
      const s = await r.state(`dlv_${i}`);
      equal(s.delivery.state, "failed");
      equal(s.attempts.length, 1, "a 404 is not retried");
      equal(s.delivery.lastError, "HTTP 404");
    }
    const route = (await r.store.alertRoutes.get("a1", "broken"))!;
    ok(route.paused, "paused");
    match(route.paused!.reason, /5 deliveries in a row failed/);
    const notice = rx.on("/webhook")[0]!.json as { type: string; data: AlertMessage };
    equal(notice.type, "alert.notice");
    match(notice.data.summary, /paused the alert route "broken"/);
    // While paused, new deliveries wait (no attempt, nothing sent).
    await r.enqueue("dlv_held", "broken");
    await r.drain();
    const held = await r.state("dlv_held");
    equal(held.delivery.state, "pending");
    equal(held.attempts.length, 0);
    equal(rx.on("/slack").length, 5);
  } finally {
    await r.close();
    await rx.close();
  }
});

Deno.test("a private or loopback destination is refused unless allowed, and says why", async () => {
  const rx = startReceivers();
  const r = await rig({ hook: { kind: "webhook", url: `${rx.origin}/webhook`, secret: SECRET } }, {
    allow: false,
  });
  try {
    await r.enqueue("dlv_1", "hook");
    await r.drain();
    const s = await r.state("dlv_1");
    equal(s.delivery.state, "failed");
    match(
      s.delivery.lastError!,
      /refused address: 127\.0\.0\.1 is not a public address \(loopback\)/,
    );
    equal(rx.on("/webhook").length, 0, "nothing reached it");
  } finally {
    await r.close();
    await rx.close();
  }
});

Deno.test("a hanging destination delays no other route", async () => {
  const rx = startReceivers();
  const r = await rig({
    slow: { kind: "slack", url: `${rx.origin}/hang` },
    fast: { kind: "slack", url: `${rx.origin}/slack` },
  });
  try {
    rx.script("/hang", { answer: "hang" });
    await r.enqueue("dlv_slow", "slow");
    await r.enqueue("dlv_fast", "fast", { notificationId: "n2" });
    r.worker.start();
    for (let i = 0; i < 100 && rx.on("/slack").length === 0; i++) {
      await new Promise((res) => setTimeout(res, 20));
    }
    equal(rx.on("/slack").length, 1, "the fast route was served while the slow one hangs");
    equal((await r.state("dlv_slow")).delivery.state, "pending");
    await r.worker.stop();
    const slow = await r.state("dlv_slow");
    equal(slow.delivery.state, "pending", "a timeout is retried");
    match(slow.delivery.lastError!, /timeout after 2 s|timeout after 1 s/);
  } finally {
    await r.close();
    await rx.close();
  }
});

Deno.test("a network error never stores or logs the secret path of a chat webhook URL", async () => {
  const port = (() => {
    const l = Deno.listen({ hostname: "127.0.0.1", port: 0 });
    const p = (l.addr as Deno.NetAddr).port;
    l.close();
    return p;
  })();
  const r = await rig({
    slack: { kind: "slack", url: `http://127.0.0.1:${port}/services/T0/B0/s3cr3tT0k3n` },
  });
  try {
    await r.enqueue("dlv_1", "slack");
    await r.drain();
    const s = await r.state("dlv_1");
    equal(s.delivery.state, "pending", "a refused connection is retried");
    ok(s.delivery.lastError!.startsWith("network error"), s.delivery.lastError!);
    ok(!JSON.stringify(s).includes("s3cr3tT0k3n"), "the secret is nowhere in the event");
  } finally {
    await r.close();
  }
});
