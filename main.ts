/**
 * The statusd entry point: `serve` (default) or `admin …`. Reads config, opens the store,
 * syncs the catalog, starts the poller, serves the HTTP app, stops on SIGINT/SIGTERM within
 * {@link SHUTDOWN_BOUND_SECONDS} whatever clients do.
 * @module
 */
import {
  createAppContext,
  isDependencyReaderWorker,
  startAlertEvaluator,
  startCandidateChecks,
  startRetention,
} from "./app/mod.ts";
import { ConfigError, loadConfig, processEnvironment } from "./config.ts";
import { InvalidRequest } from "./domain/mod.ts";
import { systemClock } from "./clock.ts";
import {
  createPoller,
  createProber,
  createSightLog,
  isParseWorker,
  loadCatalog,
  loadCatalogSignals,
  readStatusPage,
} from "./ingest/mod.ts";
import { createLogger } from "./log.ts";
import { createResponseCache, createServer } from "./routes/mod.ts";
import { openStore, StoreOpenError } from "./store/mod.ts";
import { checkDestination, createHttpSender } from "./outbound/send_http.ts";
import { createMailSender } from "./outbound/send_mail.ts";
import { createDeliveryWorker } from "./outbound/worker.ts";

/**
 * After SIGTERM/SIGINT, open requests (a slow upload, a stalled reader) and the poller's
 * fetches get this long to finish; then the process exits anyway. Live event streams end at
 * once, idle keep-alive connections are closed.
 */
export const SHUTDOWN_GRACE_SECONDS = 5;
/** The documented promise: the process is gone this soon after SIGTERM. */
export const SHUTDOWN_BOUND_SECONDS = 10;

/** Resolves when `work` settles or after `ms`, whichever comes first; true when in time. */
function within(work: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
  return Promise.race([work.then(() => true, () => true), late]).finally(() => clearTimeout(timer));
}

/** The catalog to watch; a bad `STATUSD_CATALOG` file is a configuration error. */
function catalogOf(path: string | null) {
  try {
    return loadCatalog(path ?? undefined);
  } catch (err) {
    // The loader names the file and every problem (missing, not JSON, wrong shape).
    if (path !== null && err instanceof InvalidRequest) {
      throw new ConfigError(
        `Cannot use STATUSD_CATALOG: ${err.message.replace(/(?<!\s)\s*\n\s*/g, " ")}`,
      );
    }
    throw err;
  }
}

/** Starts the server; resolves when it has stopped (open connections may still linger). */
async function serve(env: Record<string, string | undefined>): Promise<void> {
  const config = loadConfig(env);
  const log = createLogger(config.logLevel);
  const vendors = catalogOf(config.catalogPath);
  const instance = config.instanceId ?? `${Deno.hostname()}-${Deno.pid}`;
  const store = await openStore(config, {
    instance,
    onListenerError: (err) => log.error("change listener failed", { err: String(err) }),
  });
  const synced = await store.catalog.sync(vendors, systemClock.now());
  // Candidates wait for a reading to prove them (app/candidates.ts): not vendors yet.
  const candidates = vendors.filter((v) => v.candidate).length;
  log.info("catalog loaded", {
    vendors: vendors.length - candidates,
    candidates,
    engine: store.engine,
    ...synced,
  });
  const { proxy } = config.poll;
  if (proxy.http !== null || proxy.https !== null) {
    // The URLs hold no credentials (lib/proxy.ts keeps them apart).
    log.info("outbound proxy", {
      https: proxy.https?.url ?? "direct",
      http: proxy.http?.url ?? "direct",
      noProxyEntries: proxy.noProxy.length,
    });
  }
  const stopping = new AbortController();
  const poller = createPoller(config.poll, { store: store.polls, clock: systemClock, log });
  const prober = createProber({
    scope: config.probes.scope,
    intervalMs: config.probes.intervalSeconds * 1000,
    timeoutMs: config.poll.timeoutMs,
    allowPrivate: config.poll.allowPrivate,
    proxy: config.poll.proxy,
  }, {
    store: store.warnings,
    clock: systemClock,
    log,
  });
  // Alert delivery: one worker per instance; the outbox's leases share the work.
  const http = createHttpSender({
    timeoutMs: 10_000,
    allowPrivate: config.alerting.allowPrivate,
    proxy: config.alerting.proxy,
  });
  const mail = config.alerting.smtpUrl === null ? null : createMailSender({
    smtpUrl: config.alerting.smtpUrl,
    from: config.alerting.mailFrom,
    timeoutMs: 10_000,
  });
  const deliveries = createDeliveryWorker({
    store,
    http,
    mail,
    clock: systemClock,
    log,
    instanceId: instance,
  });
  const ctx = createAppContext({
    store,
    clock: systemClock,
    log,
    settings: {
      publicUrl: config.publicUrl,
      pollStableSeconds: config.poll.stableSeconds,
      pollMovingSeconds: config.poll.movingSeconds,
      maxMonitors: config.maxMonitors,
      signupPlan: config.signupPlan,
      signals: loadCatalogSignals(vendors),
      mailEnabled: mail !== null,
    },
    checkDestination: async (url) => {
      let parsed: URL;
      try {
        parsed = new URL(url);
      } catch {
        return "not a URL";
      }
      const checked = await checkDestination(parsed, config.alerting.allowPrivate);
      return "refused" in checked ? checked.refused : null;
    },
    // Adding a status page by URL reads it once through the poller's guard and proxy.
    readStatusPage: (url) =>
      readStatusPage(url, {
        allowPrivate: config.poll.allowPrivate,
        proxy: config.poll.proxy,
        timeoutMs: config.poll.timeoutMs,
      }),
    wakeDeliveries: () => deliveries.wake(),
  });
  const app = createServer({
    app: ctx,
    pollerStats: () => poller.stats(),
    proberStats: () => prober.stats(),
    responseCache: createResponseCache(store.changes),
    shutdown: stopping.signal,
    trustedProxies: config.trustedProxies,
    instance,
  });
  const server = Deno.serve({
    hostname: config.host,
    port: config.port,
    onListen: ({ hostname, port }) => {
      log.info("listening", { url: `http://${hostname}:${port}`, publicUrl: config.publicUrl });
      void firstStartWords(store, config.publicUrl).then((line) => {
        // On stdout: the log on stderr stays JSON lines for whatever reads it.
        if (line !== null) console.log(line);
      });
    },
  }, app.fetch);
  const sight = createSightLog(() => poller.stats(), log);
  // `STATUSD_POLL=off` serves what is stored and fetches nothing: no probes either.
  if (config.poll.enabled) {
    poller.start();
    sight.start();
    prober.start();
  }
  deliveries.start();
  const evaluator = startAlertEvaluator(ctx);
  // Deletes what is older than the reported windows: now, then every 15 minutes.
  const retention = startRetention(ctx);
  // Catalog candidates are read (a few every 10 minutes) only where vendors are polled.
  const candidateChecks = config.poll.enabled ? startCandidateChecks(ctx) : null;
  const stopped = Promise.withResolvers<void>();
  let stopRequested = false;
  const stop = async () => {
    if (stopRequested) return;
    stopRequested = true;
    log.info("stopping", { graceSeconds: SHUTDOWN_GRACE_SECONDS });
    stopping.abort();
    sight.stop();
    const graceful = Promise.all([
      poller.stop(),
      prober.stop(),
      retention.stop(),
      candidateChecks?.stop(),
      evaluator.stop(),
      server.shutdown(),
      deliveries.stop().then(() => {
        http.close();
        mail?.close();
      }),
    ]);
    if (!await within(graceful, SHUTDOWN_GRACE_SECONDS * 1000)) {
      log.warn("stopping without waiting any longer for open requests");
    }
    stopped.resolve();
  };
  Deno.addSignalListener("SIGINT", stop);
  Deno.addSignalListener("SIGTERM", stop);
  await Promise.race([server.finished, stopped.promise]);
  ctx.dependencyReader.close();
  await ctx.keyUses.flush();
  await store.close();
}

// A bundle runs itself as the parse worker (ingest/parse_worker.ts) and the dependency file
// reader (app/dependency_reader.ts) too: nothing to start there.
if (import.meta.main && !isParseWorker() && !isDependencyReaderWorker()) {
  const [command = "serve", ...rest] = Deno.args;
  try {
    if (command === "serve") {
      await serve(processEnvironment());
      // Requests still open after the grace period would keep the process alive.
      Deno.exit(0);
    } else if (command === "admin") {
      const { runAdmin } = await import("./cli/admin/mod.ts");
      Deno.exit(await runAdmin(rest, processEnvironment()));
    } else {
      console.error(`Unknown command "${command}": expected "serve" or "admin"`);
      Deno.exit(2);
    }
  } catch (err) {
    if (err instanceof ConfigError || err instanceof StoreOpenError) {
      console.error(err.message);
      Deno.exit(2);
    }
    throw err;
  }
}

/**
 * One line for a person after the JSON logs, on a database without accounts (a first start):
 * where to open statusd and what to do first. Null once an account exists.
 */
async function firstStartWords(
  store: { accounts: { list(): Promise<readonly unknown[]> } },
  publicUrl: string,
): Promise<string | null> {
  try {
    if ((await store.accounts.list()).length > 0) return null;
  } catch {
    return null;
  }
  return `statusd is up: open ${publicUrl}/sign-up and create the first account — it is this ` +
    "statusd's operator's (the top plan) — then pick the vendors you depend on.";
}
