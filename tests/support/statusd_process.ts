/**
 * A real `statusd` process (main.ts) for end-to-end tests: started with an environment, its
 * base URL read from the "listening" log line, stopped gently or killed outright.
 * @module
 */

const ROOT = new URL("../../", import.meta.url).pathname;

/** A running statusd. */
export interface StatusdProcess {
  /** `http://127.0.0.1:<port>`. */
  readonly base: string;
  /** The process id (the default `STATUSD_INSTANCE_ID` is host name and this). */
  readonly pid: number;
  /** The log lines written before it listened (JSON lines). */
  readonly startupLog: readonly string[];
  /** SIGTERM, then waits for the exit. */
  stop(): Promise<void>;
  /** SIGKILL (a crash), then waits for the exit. */
  kill(): Promise<void>;
}

/** A free loopback port (closed again before it is returned). */
export function freePort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  listener.close();
  return port;
}

/** Starts `main.ts` with `env` on loopback; resolves once it listens. */
export async function startStatusd(env: Record<string, string>): Promise<StatusdProcess> {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "main.ts"],
    cwd: ROOT,
    env: { NO_COLOR: "1", PORT: "0", HOST: "127.0.0.1", ...env },
    stdout: "null",
    stderr: "piped",
  }).spawn();
  const lines = child.stderr.pipeThrough(new TextDecoderStream()).getReader();
  const seen: string[] = [];
  let buffer = "";
  for (;;) {
    const { value, done } = await lines.read();
    if (done) throw new Error(`statusd exited before listening:\n${seen.join("\n")}`);
    buffer += value;
    const parts = buffer.split("\n");
    buffer = parts.pop()!;
    for (const line of parts) {
      seen.push(line);
      const url = /"msg":"listening".*"url":"(http:\/\/[^"]+)"/.exec(line)?.[1];
      if (!url) continue;
      // Keep draining the log so the process never blocks on a full pipe.
      (async () => {
        for (;;) if ((await lines.read().catch(() => ({ done: true }))).done) break;
      })();
      let ended = false;
      const end = async (signal: Deno.Signal) => {
        if (!ended) {
          ended = true;
          try {
            child.kill(signal);
          } catch { /* already gone */ }
        }
        await child.status;
      };
      return {
        base: url,
        pid: child.pid,
        startupLog: seen,
        stop: () => end("SIGTERM"),
        kill: () => end("SIGKILL"),
      };
    }
  }
}

/** Waits until `fn` answers something other than null (checking every 200 ms), or throws. */
export async function until<T>(
  what: string,
  fn: () => Promise<T | null>,
  ms = 30_000,
): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v !== null) return v;
    if (Date.now() > end) throw new Error(`gave up waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}
