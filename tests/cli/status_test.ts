/**
 * The `status` client against a real statusd: the HTTP app from `createServer` on a loopback
 * port, its store filled by the real poller reading the vendor simulator. The client runs as a
 * subprocess (`deno run -A cli/status/main.ts --api … …`) and the tests check what a user
 * sees: stdout, stderr and the exit code.
 *
 * Vendors (a fixed clock; polled at t0, t0+30 min and t0+60 min):
 * - `calm-cloud`: all operational;
 * - `outage-hub`: GitHub's recorded partial outage with an investigating incident;
 * - `flaky-pay`: that outage from t0 to t0+30 min, then calm (one 30-minute disruption);
 * - `dark-vendor`: its page answers 500, so statusd has never read it (UNKNOWN).
 */
import { deepStrictEqual, equal, match, ok } from "node:assert/strict";
import { fixedClock, MINUTE_MS, type Vendor } from "../../domain/mod.ts";
import { createPoller } from "../../ingest/mod.ts";
import { silentLogger } from "../../log.ts";
import { openSqliteStore } from "../../store/mod.ts";
import { TEST_COMMIT_WINDOWS } from "../support/store.ts";
import { ALLOW_SIMULATOR, startSimulator } from "../support/simulator.ts";
import {
  ROOT,
  runStatus,
  serveApi,
  STATUS_MAIN,
  statusEnv,
  type StatusRun,
} from "../support/status_cli.ts";

const ESC = String.fromCharCode(27);

/** A statusd with simulator data, shared by every test in this file. */
async function startStatusd() {
  const sim = startSimulator();
  const vendor = (slug: string, name: string): Vendor => ({
    name,
    slug,
    statusPageUrl: `${sim.origins[0]}/v/${slug}`,
    platform: "statuspage",
    category: "devtools",
    provider: slug,
    domains: [],
  });
  const vendors = [
    vendor("calm-cloud", "Calm Cloud"),
    vendor("outage-hub", "Outage Hub"),
    vendor("flaky-pay", "Flaky Pay"),
    vendor("dark-vendor", "Dark Vendor"),
  ];
  sim.setScenario("outage-hub", "outage");
  sim.setScenario("flaky-pay", "outage");
  sim.setScenario("dark-vendor", "status_500");

  const clock = fixedClock(Date.UTC(2026, 10, 20, 12, 0));
  const store = openSqliteStore(":memory:", { commitWindows: TEST_COMMIT_WINDOWS });
  await store.catalog.sync(vendors, clock.now());
  const poller = createPoller(
    {
      movingSeconds: 60,
      stableSeconds: 300,
      concurrency: 4,
      timeoutMs: 5000,
      allowPrivate: ALLOW_SIMULATOR,
    },
    { store: store.polls, clock, log: silentLogger, hostSpacingMs: 0 },
  );
  await poller.runOnce();
  clock.advance(30 * MINUTE_MS);
  sim.setScenario("flaky-pay", "calm");
  await poller.runOnce();
  clock.advance(30 * MINUTE_MS);
  await poller.runOnce();

  const served = serveApi(store, clock);
  return {
    api: served.api,
    async close() {
      await poller.stop();
      await served.close();
      await sim.close();
      await store.close();
    },
  };
}

type Run = StatusRun;

/** Runs the client with `args` (stdout and stderr piped). */
const status = (args: string[], extraEnv: Record<string, string> = {}): Promise<Run> =>
  runStatus(args, extraEnv);

/** Runs the client with stdout on a pseudo-terminal (util-linux `script`). */
async function statusOnTty(args: string[], extraEnv: Record<string, string> = {}): Promise<Run> {
  const quote = (s: string) => `'${s.replaceAll("'", `'\\''`)}'`;
  const line = [Deno.execPath(), "run", "-A", STATUS_MAIN, ...args].map(quote).join(" ");
  const out = await new Deno.Command("script", {
    args: ["-qec", line, "/dev/null"],
    cwd: ROOT,
    env: statusEnv(extraEnv),
    clearEnv: true,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  const dec = new TextDecoder();
  return { code: out.code, stdout: dec.decode(out.stdout), stderr: dec.decode(out.stderr) };
}

const hasScript = (() => {
  try {
    return new Deno.Command("script", { args: ["--version"], stdout: "null", stderr: "null" })
      .outputSync().success;
  } catch {
    return false;
  }
})();

/** The words of each stdout line (to check table rows without caring about padding). */
function rows(stdout: string): string[][] {
  return stdout.trimEnd().split("\n").map((l) => l.trim().split(/\s{2,}/));
}

/** The one line a failure prints on stderr. */
function oneLine(run: Run): string {
  const lines = run.stderr.trimEnd().split("\n");
  equal(lines.length, 1, `expected one line on stderr, got:\n${run.stderr}`);
  ok(!/\bat .*\.ts:\d+/.test(run.stderr), "no stack trace");
  return lines[0]!;
}

/** A loopback port nothing listens on. */
function closedPort(): number {
  const l = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (l.addr as Deno.NetAddr).port;
  l.close();
  return port;
}

Deno.test({
  name: "status CLI against a real statusd",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn(t) {
    const statusd = await startStatusd();
    const api = ["--api", statusd.api];
    const fromApi = async (path: string) => await (await fetch(`${statusd.api}${path}`)).json();
    try {
      await t.step("an operational vendor: a table row and exit 0", async () => {
        const run = await status([...api, "status", "calm-cloud"]);
        equal(run.code, 0, run.stderr);
        equal(run.stderr, "");
        const [header, row] = rows(run.stdout);
        deepStrictEqual(header, [
          "SERVICE",
          "NAME",
          "STATUS",
          "UPTIME 30D",
          "INCIDENTS",
          "CHECKED (UTC)",
        ]);
        deepStrictEqual(row, [
          "calm-cloud",
          "Calm Cloud",
          "OPERATIONAL",
          // Its reading began an hour before the server's clock: the figure says so.
          "not enough data yet (1 h observed)",
          "0",
          "2026-11-20 13:00",
        ]);
      });

      await t.step(
        "a slug as the first word means `status status`; exit 1 on an outage",
        async () => {
          const run = await status([...api, "calm-cloud", "Outage-Hub"]);
          equal(run.code, 1, run.stderr);
          const lines = rows(run.stdout);
          deepStrictEqual(lines[1]!.slice(0, 3), ["calm-cloud", "Calm Cloud", "OPERATIONAL"]);
          deepStrictEqual(lines[2]!.slice(0, 3), ["outage-hub", "Outage Hub", "PARTIAL_OUTAGE"]);
          equal(lines[2]![4], "1");
          // Below the table: the open incident and the impaired component.
          match(run.stdout, /^outage-hub \(Outage Hub\)$/m);
          match(run.stdout, /incident\s+MAJOR\s+INVESTIGATING\s+since .*Incident with Packages/);
          match(run.stdout, /component\s+PARTIAL_OUTAGE\s+Packages/);
        },
      );

      await t.step("--json prints the service as the API returns it", async () => {
        const run = await status([...api, "status", "outage-hub", "calm-cloud", "--json"]);
        equal(run.code, 1, run.stderr);
        const body = JSON.parse(run.stdout);
        equal(body.ok, false);
        deepStrictEqual(body.services, [
          await fromApi("/api/services/outage-hub"),
          await fromApi("/api/services/calm-cloud"),
        ]);
        equal(body.services[0].incidents[0].title, "Incident with Packages and Pages");

        const calm = JSON.parse((await status([...api, "calm-cloud", "--json"])).stdout);
        equal(calm.ok, true);
      });

      await t.step("UNKNOWN is reported plainly and is not operational", async () => {
        const run = await status([...api, "dark-vendor"]);
        equal(run.code, 1);
        const [slug, name, statusCell, uptime, incidents] = rows(run.stdout)[1]!;
        deepStrictEqual([slug, name, uptime, incidents], ["dark-vendor", "Dark Vendor", "-", "0"]);
        // Why, and since when (its page has answered 500 since the first poll).
        match(statusCell!, /^UNKNOWN — HTTP 500 since (2026-11-20 )?12:00$/);
      });

      await t.step("an unknown vendor exits 2 with suggestions from the catalog", async () => {
        const close = await status([...api, "outage-hb"]);
        equal(close.code, 2);
        equal(close.stdout, "");
        equal(oneLine(close), 'status: Unknown vendor "outage-hb": did you mean "outage-hub"?');

        const far = await status([...api, "check", "calm-cloud", "zzzzzzzz"]);
        equal(far.code, 2);
        equal(oneLine(far), 'status: Unknown vendor "zzzzzzzz": no close match in the catalog');

        const feed = await status([...api, "incidents", "--service", "flaky-py"]);
        equal(feed.code, 2);
        equal(oneLine(feed), 'status: Unknown vendor "flaky-py": did you mean "flaky-pay"?');
      });

      await t.step("an unreachable API exits 3 with one line", async () => {
        const url = `http://127.0.0.1:${closedPort()}`;
        const run = await status(["--api", url, "calm-cloud"]);
        equal(run.code, 3);
        equal(run.stdout, "");
        equal(oneLine(run), `status: Cannot reach the statusd API at ${url}: connection refused`);

        const viaEnv = await status(["incidents"], { STATUS_API_URL: url });
        equal(viaEnv.code, 3);
        match(oneLine(viaEnv), /Cannot reach the statusd API at http:\/\/127\.0\.0\.1:\d+/);
      });

      await t.step(
        "an error answer exits 3: STATUS_API_KEY is sent and an unknown key is refused",
        async () => {
          const run = await status([...api, "calm-cloud"], { STATUS_API_KEY: "sd_live_not_a_key" });
          equal(run.code, 3);
          equal(run.stdout, "");
          match(oneLine(run), /^status: The API answered 401 unauthorized: /);
        },
      );

      await t.step("check --fail-on: exit 1 at that level or worse, 0 below it", async () => {
        // outage-hub is PARTIAL_OUTAGE.
        const cases: [string, number][] = [
          ["maintenance", 1],
          ["degraded", 1],
          ["partial", 1],
          ["major", 0],
          ["UNDER_MAINTENANCE", 1],
          ["DEGRADED_PERFORMANCE", 1],
          ["PARTIAL_OUTAGE", 1],
          ["MAJOR_OUTAGE", 0],
        ];
        for (const [level, code] of cases) {
          const run = await status([...api, "check", "outage-hub", "--fail-on", level]);
          equal(run.code, code, `--fail-on ${level}: ${run.stdout}${run.stderr}`);
          equal(run.stderr, "");
        }
        const calm = await status([
          ...api,
          "check",
          "calm-cloud",
          "flaky-pay",
          "--fail-on",
          "maintenance",
        ]);
        equal(calm.code, 0);
        deepStrictEqual(rows(calm.stdout), [
          ["SERVICE", "NAME", "STATUS", "RESULT"],
          ["calm-cloud", "Calm Cloud", "OPERATIONAL", "pass"],
          ["flaky-pay", "Flaky Pay", "OPERATIONAL", "pass"],
          [""],
          ["ok: none at UNDER_MAINTENANCE or worse"],
        ]);
        const failing = await status([...api, "check", "calm-cloud", "outage-hub"]);
        equal(failing.code, 1, "the default --fail-on is degraded");
        match(
          failing.stdout,
          /^FAIL: outage-hub is PARTIAL_OUTAGE \(fails at DEGRADED_PERFORMANCE or worse, or UNKNOWN\)$/m,
        );
      });

      await t.step("check: UNKNOWN fails unless --allow-unknown; --json fields", async () => {
        const strict = await status([
          ...api,
          "check",
          "dark-vendor",
          "--fail-on",
          "major",
          "--json",
        ]);
        equal(strict.code, 1);
        deepStrictEqual(JSON.parse(strict.stdout), {
          ok: false,
          failOn: "MAJOR_OUTAGE",
          allowUnknown: false,
          services: [{
            slug: "dark-vendor",
            name: "Dark Vendor",
            currentStatus: "UNKNOWN",
            failed: true,
            reading: "failing",
          }],
        });
        const lenient = await status([
          ...api,
          "check",
          "dark-vendor",
          "calm-cloud",
          "--fail-on=major",
          "--allow-unknown",
        ]);
        equal(lenient.code, 0, lenient.stdout);

        const bad = await status([...api, "check", "calm-cloud", "--fail-on", "operational"]);
        equal(bad.code, 2);
        match(oneLine(bad), /^status: Cannot use --fail-on: "operational" is not a level/);
      });

      await t.step("incidents: the feed as a table and as JSON", async () => {
        const run = await status([...api, "incidents", "--active"]);
        equal(run.code, 0, run.stderr);
        const lines = rows(run.stdout);
        deepStrictEqual(lines[0], ["SERVICE", "IMPACT", "STATUS", "STARTED (UTC)", "TITLE"]);
        const active = await fromApi("/api/incidents?active=true");
        equal(lines.length, 1 + active.content.length);
        ok(lines.some((l) => l[0] === "outage-hub" && l[4] === "Incident with Packages and Pages"));
        ok(!lines.some((l) => l[0] === "flaky-pay"), "flaky-pay recovered: nothing active");

        const json = await status([...api, "incidents", "--service", "outage-hub", "--json"]);
        equal(json.code, 0);
        const feed = await fromApi("/api/incidents?service=outage-hub");
        deepStrictEqual(JSON.parse(json.stdout), {
          totalElements: feed.totalElements,
          incidents: feed.content,
        });

        const none = await status([...api, "incidents", "--active", "--service", "calm-cloud"]);
        equal(none.code, 0);
        equal(none.stdout, "No active incidents for calm-cloud\n");
      });

      await t.step("uptime: the window's percent and the 90-day MTTR", async () => {
        const run = await status([...api, "uptime", "flaky-pay", "calm-cloud", "--days", "7"]);
        equal(run.code, 0, run.stderr);
        const flaky = await fromApi("/api/services/flaky-pay/uptime");
        // statusd began reading these vendors minutes ago: no figure yet, and it says so.
        const table = rows(run.stdout);
        const covered = table.slice(1).map((r) => r.splice(2, 1)[0]);
        deepStrictEqual(table, [
          ["SERVICE", "UPTIME 7D", "COVERS", "MTTR (90D)", "DISRUPTIONS (90D)"],
          ["flaky-pay", "-", "30m", "1"],
          ["calm-cloud", "-", "-", "0"],
        ]);
        for (const c of covered) match(c!, /^not enough data yet \(.+ observed\)$/);
        equal(flaky.days7, null);

        const json = await status([...api, "uptime", "flaky-pay", "--json"]);
        const parsed = JSON.parse(json.stdout);
        match(parsed.services[0].covers, /^not enough data yet \(.+ observed\)$/);
        delete parsed.services[0].covers;
        deepStrictEqual(parsed, {
          days: 30,
          services: [{
            slug: "flaky-pay",
            uptimePercent: flaky.days30,
            mttrMinutes: 30,
            disruptions: 1,
            days7: flaky.days7,
            days30: flaky.days30,
            days90: flaky.days90,
          }],
        });

        const bad = await status([...api, "uptime", "flaky-pay", "--days", "14"]);
        equal(bad.code, 2);
        equal(oneLine(bad), "status: Cannot use --days: expected 7, 30 or 90 (see status --help)");
      });

      await t.step(
        "colour only on a terminal, never when piped, with NO_COLOR or --json",
        async () => {
          const piped = await status([...api, "calm-cloud", "outage-hub"]);
          equal(piped.code, 1);
          ok(!piped.stdout.includes(ESC), "no escape codes when piped");
          if (!hasScript) return;
          const tty = await statusOnTty([...api, "calm-cloud", "outage-hub"]);
          equal(tty.code, 1);
          ok(tty.stdout.includes(`${ESC}[32mOPERATIONAL${ESC}[0m`), tty.stdout);
          ok(tty.stdout.includes(`${ESC}[35mPARTIAL_OUTAGE${ESC}[0m`));
          const noColor = await statusOnTty([...api, "calm-cloud"], { NO_COLOR: "1" });
          equal(noColor.code, 0);
          ok(noColor.stdout.includes("OPERATIONAL") && !noColor.stdout.includes(ESC));
          const json = await statusOnTty([...api, "calm-cloud", "--json"]);
          ok(!json.stdout.includes(ESC));
        },
      );

      await t.step("--help for the client and for each command; usage errors exit 2", async () => {
        const top = await status(["--help"]);
        equal(top.code, 0);
        match(top.stdout, /^Usage: status <command>/m);
        match(top.stdout, /^ {2}3 {2}the API could not be reached/m);
        for (const name of ["status", "incidents", "uptime", "check"]) {
          for (const args of [[name, "--help"], ["help", name], [name, "-h"]]) {
            const run = await status(args);
            equal(run.code, 0);
            match(run.stdout, new RegExp(`^Usage: status ${name} `, "m"));
            match(run.stdout, /^JSON \(--json\):/m);
            match(run.stdout, /^Exit codes:/m);
          }
        }
        const nothing = await status([]);
        equal(nothing.code, 2);
        equal(oneLine(nothing), "status: Name a command or a vendor slug (see status --help)");
        const flag = await status(["status", "github", "--verbose"]);
        equal(flag.code, 2);
        equal(oneLine(flag), "status: unknown flag --verbose (see status --help)");
        const typo = await status(["check", "github", "--fial-on", "major"]);
        equal(typo.code, 2);
        equal(
          oneLine(typo),
          "status: unknown flag --fial-on; did you mean --fail-on? (see status --help)",
        );
        const url = await status(["github", "--api", "localhost:8080"]);
        equal(url.code, 2);
        match(oneLine(url), /^status: Cannot use --api: /);
      });
    } finally {
      await statusd.close();
    }
  },
});
