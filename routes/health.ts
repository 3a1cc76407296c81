/**
 * `GET /healthz`: is the database answering, is the poller running, and how much is stored.
 * @module
 */
import { catalogCounts } from "../app/mod.ts";
import { toIso } from "../domain/mod.ts";
import type { Register } from "./mod.ts";

/**
 * Mounts `/healthz`: 200 with `status: "ok"` when the database answers and the poller runs,
 * `"degraded"` when the poller is stopped (or off), 503 `"down"` when the database fails.
 */
export const registerHealth: Register = (api, deps) => {
  api.get("/healthz", (c) => {
    const poller = deps.pollerStats ? deps.pollerStats() : null;
    const headers = { "Cache-Control": "no-store" };
    try {
      const counts = catalogCounts(deps.app);
      const running = poller?.running ?? false;
      return c.json(
        {
          status: running ? "ok" : "degraded",
          time: toIso(deps.app.clock.now()),
          database: { ok: true },
          poller: poller ?? { running: false },
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
          time: toIso(deps.app.clock.now()),
          database: { ok: false, error: "the database did not answer" },
          poller: poller ?? { running: false },
        },
        503,
        headers,
      );
    }
  });
};
