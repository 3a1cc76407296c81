/**
 * `/healthz` names the instance that answered and the engine behind it: without
 * `STATUSD_INSTANCE_ID` the instance is the host name and the process id (README), so two
 * processes on one machine never share a name; with it, the name given.
 */
import { equal, notEqual } from "node:assert/strict";
import { join } from "node:path";
import { startStatusd } from "../support/statusd_process.ts";

Deno.test("healthz names the instance (host name and process id unless STATUSD_INSTANCE_ID) and the engine", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const base = { STATUSD_POLL: "off", STATUSD_DB: join(dir, "statusd.db") };
    const a = await startStatusd(base);
    const b = await startStatusd({ ...base, STATUSD_INSTANCE_ID: "edge-1" });
    try {
      const healthA = await (await fetch(`${a.base}/healthz`)).json();
      equal(healthA.instance, `${Deno.hostname()}-${a.pid}`);
      equal(healthA.database.engine, "sqlite");
      const healthB = await (await fetch(`${b.base}/healthz`)).json();
      equal(healthB.instance, "edge-1");
      notEqual(healthA.instance, healthB.instance);
    } finally {
      await a.stop();
      await b.stop();
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
