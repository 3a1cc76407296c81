/**
 * The `status` client as a user runs it, for tests: a subprocess of cli/status/main.ts with a
 * clean environment, and a statusd API on loopback for it to ask.
 * @module
 */
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { createAppContext } from "../../app/mod.ts";
import { type Clock, type Store } from "../../domain/mod.ts";
import { PROXY_VARIABLES } from "../../lib/mod.ts";
import { silentLogger } from "../../log.ts";
import { createServer } from "../../routes/mod.ts";

/** The repository's root. */
export const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
/** The client's entry point. */
export const STATUS_MAIN = join(ROOT, "cli", "status", "main.ts");

/** What a run of the client did. */
export interface StatusRun {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** Variables of the test process that would change what the client does. */
const CLIENT_VARIABLES = [
  "STATUS_API_URL",
  "STATUS_API_KEY",
  "NO_COLOR",
  "FORCE_COLOR",
  ...PROXY_VARIABLES,
];

/** The test process's environment without {@link CLIENT_VARIABLES}, with `extra` added. */
export function statusEnv(extra: Record<string, string> = {}): Record<string, string> {
  const env = Deno.env.toObject();
  for (const name of CLIENT_VARIABLES) delete env[name];
  return { ...env, ...extra };
}

/** Runs `status …args` with stdout and stderr piped, in {@link statusEnv}(`extra`). */
export async function runStatus(
  args: readonly string[],
  extra: Record<string, string> = {},
): Promise<StatusRun> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", STATUS_MAIN, ...args],
    cwd: ROOT,
    env: statusEnv(extra),
    clearEnv: true,
    stdout: "piped",
    stderr: "piped",
  }).output();
  const dec = new TextDecoder();
  return { code: out.code, stdout: dec.decode(out.stdout), stderr: dec.decode(out.stderr) };
}

/** The statusd API over `store` on 127.0.0.1 (a free port); `close()` stops it. */
export function serveApi(store: Store, clock: Clock) {
  const app = createServer({
    app: createAppContext({
      store,
      clock,
      log: silentLogger,
      settings: { publicUrl: "http://127.0.0.1", pollStableSeconds: 300, pollMovingSeconds: 60 },
    }),
  });
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, app.fetch);
  return {
    api: `http://127.0.0.1:${server.addr.port}`,
    port: server.addr.port,
    close: () => server.shutdown(),
  };
}
