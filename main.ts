/**
 * The statusd entry point: `serve` (default) or `admin …`. Reads config, opens the store,
 * syncs the catalog, starts the poller, serves the HTTP app, stops cleanly on SIGINT/SIGTERM.
 * @module
 */
import { startRetention } from "./app/mod.ts";
import { ConfigError, loadConfig } from "./config.ts";
import { systemClock } from "./domain/mod.ts";
import { createPoller, loadCatalog } from "./ingest/mod.ts";
import { createLogger } from "./log.ts";
import { createServer } from "./routes/mod.ts";
import { createChangeFeed, openStore, pollStore, syncCatalog } from "./store/mod.ts";

/** Starts the server; resolves when it has stopped. */
async function serve(env: Record<string, string | undefined>): Promise<void> {
  const config = loadConfig(env);
  const log = createLogger(config.logLevel);
  const db = openStore(config.dbPath);
  const vendors = loadCatalog(config.catalogPath ?? undefined);
  const synced = syncCatalog(db, vendors, systemClock.now());
  log.info("catalog loaded", { vendors: vendors.length, ...synced });
  const changes = createChangeFeed();
  const stopping = new AbortController();
  const poller = createPoller(config.poll, {
    store: pollStore(db),
    changes,
    clock: systemClock,
    log,
  });
  const ctx = {
    db,
    clock: systemClock,
    changes,
    log,
    settings: {
      publicUrl: config.publicUrl,
      pollStableSeconds: config.poll.stableSeconds,
      pollMovingSeconds: config.poll.movingSeconds,
    },
  };
  const app = createServer({
    app: ctx,
    pollerStats: () => poller.stats(),
    shutdown: stopping.signal,
  });
  const server = Deno.serve({
    hostname: config.host,
    port: config.port,
    onListen: ({ hostname, port }) =>
      log.info("listening", { url: `http://${hostname}:${port}`, publicUrl: config.publicUrl }),
  }, app.fetch);
  if (config.poll.enabled) poller.start();
  // Deletes what is older than the reported windows: now, then every 15 minutes.
  const retention = startRetention(ctx);
  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    log.info("stopping");
    stopping.abort();
    await poller.stop();
    await retention.stop();
    await server.shutdown();
  };
  Deno.addSignalListener("SIGINT", stop);
  Deno.addSignalListener("SIGTERM", stop);
  await server.finished;
  db.close();
}

if (import.meta.main) {
  const [command = "serve", ...rest] = Deno.args;
  try {
    if (command === "serve") await serve(Deno.env.toObject());
    else if (command === "admin") {
      const { runAdmin } = await import("./cli/admin/mod.ts");
      Deno.exit(await runAdmin(rest, Deno.env.toObject()));
    } else {
      console.error(`Unknown command "${command}": expected "serve" or "admin"`);
      Deno.exit(2);
    }
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      Deno.exit(2);
    }
    throw err;
  }
}
