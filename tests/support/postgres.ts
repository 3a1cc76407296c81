/**
 * A real PostgreSQL server for tests: `STATUSD_TEST_DATABASE_URL` when set, otherwise a
 * throwaway cluster of our own (Debian's PostgreSQL 15: `initdb` into a temporary folder, run as
 * the `postgres` user when we are root because the server refuses root, on a free loopback port,
 * stopped when the test process ends). Each call of {@link freshDatabase} creates an empty
 * database of its own, so tests never see each other's rows; {@link freshMigratedDatabase} gives
 * one with statusd's schema and no rows.
 * @module
 */
import { openPostgresStore } from "../../store/postgres/mod.ts";

const BIN_DIRS = [
  "/usr/lib/postgresql/15/bin",
  "/usr/lib/postgresql/16/bin",
  "/usr/lib/postgresql/17/bin",
];

/** A database created for one test; `drop()` removes it. */
export interface TestDatabase {
  /** `postgres://…/<name>` for statusd (`STATUSD_DATABASE_URL`) or the `postgres` client. */
  readonly url: string;
  readonly name: string;
  drop(): Promise<void>;
}

let server: Promise<string> | null = null;

/** The admin URL of the shared test server (started on first use). */
export function testServerUrl(): Promise<string> {
  server ??= startServer();
  return server;
}

/** True when a PostgreSQL server can be had (a URL is set or the binaries are installed). */
export function postgresAvailable(): boolean {
  if (Deno.env.get("STATUSD_TEST_DATABASE_URL")) return true;
  return binDir() !== null;
}

/** Creates an empty database on the test server. */
export function freshDatabase(): Promise<TestDatabase> {
  return createDatabase();
}

/**
 * A database with every migration applied and no rows. Creating and migrating a database costs
 * about a second of the server's time, so each test process keeps the ones it has used: `drop`
 * empties every table and restarts its sequences and keeps the database for the next
 * caller, and the process drops them all when it ends.
 */
export async function freshMigratedDatabase(): Promise<TestDatabase> {
  const db = idle.pop() ?? await migratedDatabase();
  let released = false;
  return {
    ...db,
    drop: async () => {
      if (released) return;
      released = true;
      await psql(db.url, EMPTY_EVERY_TABLE);
      idle.push(db);
    },
  };
}

/** Migrated databases of this process, empty and waiting for a test. */
const idle: TestDatabase[] = [];
const made: TestDatabase[] = [];

async function migratedDatabase(): Promise<TestDatabase> {
  const db = await freshDatabase();
  const store = await openPostgresStore(db.url, { poolSize: 1 });
  await store.close();
  if (made.length === 0) globalThis.addEventListener("unload", dropMade);
  made.push(db);
  return db;
}

/**
 * Drops the migrated databases when the process ends (synchronously: it is ending). On a server
 * shared by the whole run (`STATUSD_TEST_DATABASE_URL`) they are left to it: the run throws the
 * cluster away, and dropping them here (WITH FORCE) would cut the connections of a write the
 * module left behind (a deferred key-use flush) in the middle of it.
 */
function dropMade(): void {
  if (Deno.env.get("STATUSD_TEST_DATABASE_URL")) return;
  const names = made.splice(0).map((db) => db.name);
  if (names.length === 0 || adminUrl === null) return;
  for (const name of names) {
    new Deno.Command("psql", {
      args: [adminUrl, "-q", "-c", `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`],
      stdout: "null",
      stderr: "null",
    }).outputSync();
  }
}

/**
 * Empties every table but the migrations' own record and restarts every sequence. DELETE, not
 * TRUNCATE: on a test's few rows it is several times faster; foreign keys are not checked
 * (`session_replication_role = replica`) since every row goes.
 */
const EMPTY_EVERY_TABLE = `SET session_replication_role = replica; DO $$ DECLARE t text; BEGIN
  FOR t IN SELECT tablename FROM pg_tables
    WHERE schemaname = 'public' AND tablename <> 'schema_migrations' LOOP
    EXECUTE format('DELETE FROM %I', t);
  END LOOP;
  FOR t IN SELECT sequencename FROM pg_sequences WHERE schemaname = 'public' LOOP
    EXECUTE format('ALTER SEQUENCE %I RESTART', t);
  END LOOP;
END $$`;

let adminUrl: string | null = null;

async function createDatabase(): Promise<TestDatabase> {
  const admin = new URL(await testServerUrl());
  adminUrl = admin.href;
  const name = `statusd_t_${crypto.randomUUID().replaceAll("-", "").slice(0, 16)}`;
  await psql(admin.href, `CREATE DATABASE ${name}`);
  const url = new URL(admin.href);
  url.pathname = `/${name}`;
  return {
    url: url.href,
    name,
    drop: () => psql(admin.href, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`),
  };
}

function binDir(): string | null {
  for (const dir of BIN_DIRS) {
    try {
      Deno.statSync(`${dir}/initdb`);
      return dir;
    } catch {
      // try the next version
    }
  }
  return null;
}

async function startServer(): Promise<string> {
  const given = Deno.env.get("STATUSD_TEST_DATABASE_URL");
  if (given) return given;
  const cluster = await startCluster();
  globalThis.addEventListener("unload", () => stopCluster(cluster.dir));
  return cluster.url;
}

/** The user running the server: `postgres` when we are root (the server refuses root). */
function asOwner(cmd: string[]): string[] {
  return Deno.uid() === 0 ? ["runuser", "-u", "postgres", "--", ...cmd] : cmd;
}

/**
 * Starts a throwaway cluster in a new temporary folder (`dir`, the data in `dir/data`) on a free
 * loopback port; it runs until {@link stopCluster}.
 */
async function startCluster(): Promise<{ url: string; dir: string }> {
  const bin = binDir();
  if (!bin) {
    throw new Error(
      "Cannot start PostgreSQL for tests: no initdb under /usr/lib/postgresql/*/bin " +
        "(install Debian's postgresql or set STATUSD_TEST_DATABASE_URL)",
    );
  }
  const dir = await Deno.makeTempDir({ prefix: "statusd-pg-" });
  if (Deno.uid() === 0) await run(["chown", "postgres:postgres", dir]);
  const data = `${dir}/data`;
  await run(
    asOwner([
      `${bin}/initdb`,
      "-D",
      data,
      "-U",
      "postgres",
      "-A",
      "trust",
      "-E",
      "UTF8",
      "--no-sync",
    ]),
  );
  const port = freePort();
  const options = [
    `-p ${port}`,
    "-c listen_addresses=127.0.0.1",
    `-c unix_socket_directories=${dir}`,
    "-c fsync=off",
    "-c synchronous_commit=off",
    "-c full_page_writes=off",
    "-c max_connections=200",
  ].join(" ");
  await run(
    asOwner([`${bin}/pg_ctl`, "-D", data, "-o", options, "-l", `${dir}/log`, "-w", "start"]),
  );
  return { url: `postgres://postgres@127.0.0.1:${port}/postgres`, dir };
}

/** Stops the cluster of {@link startCluster} at once and removes its folder (best effort). */
function stopCluster(dir: string): void {
  const bin = binDir();
  if (bin) {
    const stop = asOwner([`${bin}/pg_ctl`, "-D", `${dir}/data`, "-m", "immediate", "stop"]);
    new Deno.Command(stop[0]!, { args: stop.slice(1), stdout: "null", stderr: "null" })
      .outputSync();
  }
  try {
    Deno.removeSync(dir, { recursive: true });
  } catch {
    // best effort: the folder is under the system's temporary directory
  }
}

function freePort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  listener.close();
  return port;
}

async function run(cmd: string[]): Promise<void> {
  const out = await new Deno.Command(cmd[0]!, {
    args: cmd.slice(1),
    stdout: "piped",
    stderr: "piped",
  })
    .output();
  if (!out.success) {
    const err = new TextDecoder().decode(out.stderr).trim().split("\n").slice(-3).join(" / ");
    throw new Error(`Cannot run ${cmd.join(" ")}: ${err}`);
  }
}

/** Runs one SQL statement with the `psql` client (keeps this module free of a driver). */
async function psql(url: string, sql: string): Promise<void> {
  await run(["psql", url, "-v", "ON_ERROR_STOP=1", "-q", "-c", sql]);
}

/**
 * One cluster for a whole test run (`.ci/test.sh`), so test files share it through
 * `STATUSD_TEST_DATABASE_URL` instead of each starting its own:
 *   deno run -A tests/support/postgres.ts start       prints "<url> <dir>"
 *   deno run -A tests/support/postgres.ts stop <dir>  stops it and removes the folder
 */
if (import.meta.main) {
  const [verb, dir] = Deno.args;
  if (verb === "start") {
    const cluster = await startCluster();
    console.log(`${cluster.url} ${cluster.dir}`);
  } else if (verb === "stop" && dir) {
    stopCluster(dir);
  } else {
    console.error("usage: postgres.ts start | stop <dir>");
    Deno.exit(2);
  }
}
