import { equal, ok } from "node:assert/strict";
import { TextLineStream } from "../../support/lines.ts";
import { startSimulator } from "../../support/simulator.ts";
import { openDb, tempPath } from "./_sqlite.ts";

Deno.test("kill -9 in the middle of polling: the database opens intact with every committed change", async () => {
  const store = tempPath();
  const sim = startSimulator();
  const vendors = 40;
  const slugs = sim.catalog(vendors).map((v) => v.slug);
  let flip = 0;
  const flipper = setInterval(() => {
    flip++;
    for (const [i, slug] of slugs.entries()) {
      sim.setScenario(slug, (i + flip) % 2 === 0 ? "outage" : "calm");
    }
  }, 20);
  const child = new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "-A",
      new URL("./_crash_writer.ts", import.meta.url).pathname,
      store.path,
      sim.origins[0]!,
      String(vendors),
    ],
    stdout: "piped",
    stderr: "inherit",
  }).spawn();
  const committed: number[] = [];
  try {
    const lines = child.stdout.pipeThrough(new TextDecoderStream()).pipeThrough(
      new TextLineStream(),
    );
    for await (const line of lines) {
      committed.push(...(JSON.parse(line) as number[]));
      if (committed.length >= 400) {
        child.kill("SIGKILL");
        break;
      }
    }
    const status = await child.status;
    equal(status.signal, "SIGKILL");
  } finally {
    clearInterval(flipper);
    await sim.close();
  }
  const db = openDb(store.path);
  try {
    const integrity = db.prepare("PRAGMA integrity_check").get() as { integrity_check: string };
    equal(integrity.integrity_check, "ok");
    const ids = new Set(
      db.prepare("SELECT id FROM changes").all().map((r) => r.id as number),
    );
    const lost = committed.filter((id) => !ids.has(id));
    equal(lost.length, 0, `committed changes missing after the crash: ${lost.slice(0, 5)}`);
    const transitions = db.prepare(
      "SELECT COUNT(*) AS n FROM transitions WHERE component_id IS NULL",
    )
      .get() as { n: number };
    ok(transitions.n >= vendors);
    // Every vendor's stored status matches its last stored service transition.
    const mismatched = db.prepare(
      `SELECT v.slug FROM vendors v WHERE v.current_status != COALESCE((SELECT t.to_status FROM transitions t
         WHERE t.vendor_id = v.id AND t.component_id IS NULL ORDER BY t.id DESC LIMIT 1), 'UNKNOWN')`,
    ).all();
    equal(mismatched.length, 0);
  } finally {
    db.close();
    store.remove();
  }
});
