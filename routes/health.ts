/**
 * `GET /healthz`: is the database answering, is the poller running, are vendors being read,
 * and how much is stored.
 * @module
 */
import { healthReport } from "../app/mod.ts";
import { toIso } from "../domain/mod.ts";
import type { Register } from "./register.ts";

/**
 * Mounts `/healthz`. `status` is `"ok"`; `"degraded"` (still 200: the process serves what it
 * has stored, and a restart would not help) when the poller is stopped (or off) or when more
 * than half of the polls of the last two stable intervals failed, with `reasons` in words and
 * `reading.failuresByKind`; `"down"` with 503 when the database fails. Names the instance
 * (`STATUSD_INSTANCE_ID`, else host and process id) and the database engine. `probes` counts
 * statusd's own probes; when many unrelated vendors' probes fail together it is `"degraded"` too,
 * with the reason (statusd's own network seems at fault).
 */
export const registerHealth: Register = (api, deps) => {
  api.get("/healthz", async (c) => {
    const poller = deps.pollerStats ? deps.pollerStats() : null;
    const probes = deps.proberStats ? deps.proberStats() : null;
    const headers = { "Cache-Control": "no-store" };
    try {
      const app = deps.app;
      const { counts, polls, readings } = await healthReport(app);
      const running = poller?.running ?? false;
      const reasons: string[] = [];
      if (!running) reasons.push("the poller is not running");
      if (probes?.localOutage) {
        const o = probes.localOutage;
        reasons.push(
          `statusd's own probes of ${o.failing} of ${o.probed} vendors fail together since ` +
            `${toIso(o.since)}: its own network seems at fault, so no vendor is warned`,
        );
      }
      if (polls.mostFailing) {
        reasons.push(
          `${polls.failed} of ${polls.polls} polls in the last ` +
            `${Math.round(polls.windowSeconds / 60)} min failed`,
        );
      }
      return c.json(
        {
          status: reasons.length ? "degraded" : "ok",
          reasons,
          time: toIso(app.clock.now()),
          instance: deps.instance ?? null,
          database: { ok: true, engine: app.store.engine },
          poller: poller ?? { running: false },
          probes: probes === null ? { scope: "off" } : {
            ...probes,
            lastRoundAt: probes.lastRoundAt === null ? null : toIso(probes.lastRoundAt),
            localOutage: probes.localOutage === null
              ? null
              : { ...probes.localOutage, since: toIso(probes.localOutage.since) },
          },
          reading: {
            windowSeconds: polls.windowSeconds,
            polls: polls.polls,
            failed: polls.failed,
            failuresByKind: polls.failuresByKind,
            services: readings,
          },
          counts: { ...counts, lastCheckedAt: toIso(counts.lastCheckedAt) },
        },
        200,
        headers,
      );
    } catch (err) {
      deps.app.log.error("health check: database failed", { err: String(err) });
      return c.json(
        {
          status: "down",
          reasons: ["the database did not answer"],
          time: toIso(deps.app.clock.now()),
          instance: deps.instance ?? null,
          database: {
            ok: false,
            engine: deps.app.store.engine,
            error: "the database did not answer",
          },
          poller: poller ?? { running: false },
        },
        503,
        headers,
      );
    }
  });
};
