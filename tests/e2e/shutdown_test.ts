/**
 * SIGTERM ends statusd within its documented bound whatever clients do: a real `deno run
 * main.ts` on a free port with a temp database, holding a slow upload, an open event stream
 * and an idle keep-alive connection when the signal comes; uploads their clients give up on
 * while it stops log no error.
 */
import { deepStrictEqual, equal, ok } from "node:assert/strict";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { SHUTDOWN_BOUND_SECONDS } from "../../main.ts";
import { TextLineStream } from "../support/lines.ts";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..", "..");

/** Collects the server's JSON log lines; resolves `listening` with its port. */
function watchLog(stderr: ReadableStream<Uint8Array>) {
  const lines: Record<string, unknown>[] = [];
  const port = Promise.withResolvers<number>();
  const stopping = Promise.withResolvers<void>();
  const done = (async () => {
    for await (
      const line of stderr.pipeThrough(new TextDecoderStream()).pipeThrough(new TextLineStream())
    ) {
      let entry: Record<string, unknown>;
      try {
        entry = JSON.parse(line);
      } catch {
        entry = { raw: line };
      }
      lines.push(entry);
      if (entry.msg === "listening") port.resolve(Number(new URL(String(entry.url)).port));
      if (entry.msg === "stopping") stopping.resolve();
    }
    port.reject(new Error(`server exited before listening: ${JSON.stringify(lines)}`));
  })();
  return { lines, port: port.promise, stopping: stopping.promise, done };
}

async function send(conn: Deno.Conn, text: string): Promise<void> {
  await conn.write(new TextEncoder().encode(text));
}

Deno.test({
  name:
    "SIGTERM ends the process before the documented bound despite a slow upload, an event stream and an idle keep-alive",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const dir = await Deno.makeTempDir({ prefix: "statusd-shutdown-" });
    const child = new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", "main.ts"],
      cwd: ROOT,
      env: {
        PORT: "0",
        HOST: "127.0.0.1",
        STATUSD_DB: join(dir, "statusd.db"),
        STATUSD_POLL: "off",
        NO_COLOR: "1",
      },
      stdin: "null",
      stdout: "null",
      stderr: "piped",
    }).spawn();
    const log = watchLog(child.stderr);
    const conns: Deno.Conn[] = [];
    try {
      const port = await log.port;
      const base = `http://127.0.0.1:${port}`;
      // A slow upload: headers and a few bytes of a 10,000-byte form, then nothing.
      const upload = await Deno.connect({ hostname: "127.0.0.1", port });
      conns.push(upload);
      await send(
        upload,
        "POST /sign-in HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\n" +
          "Content-Length: 10000\r\n\r\nemail=a",
      );
      // A slow JSON upload to the API, given up on while the server stops.
      const apiUpload = await Deno.connect({ hostname: "127.0.0.1", port });
      conns.push(apiUpload);
      await send(
        apiUpload,
        "POST /api/user/monitors/suggestions HTTP/1.1\r\nHost: x\r\n" +
          "Content-Type: application/json\r\nX-API-Key: sd_live_x\r\n" +
          'Content-Length: 10000\r\n\r\n{"files":[',
      );
      // An open event stream.
      const events = await fetch(`${base}/api/events`);
      const reader = events.body!.pipeThrough(new TextDecoderStream()).getReader();
      for (let text = ""; !text.includes(": connected");) text += (await reader.read()).value ?? "";
      // An idle keep-alive connection that has had one answer.
      const idle = await Deno.connect({ hostname: "127.0.0.1", port });
      conns.push(idle);
      await send(idle, "GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n");
      const buf = new Uint8Array(65536);
      ok((await idle.read(buf))! > 0);

      child.kill("SIGTERM");
      const signalled = performance.now();
      // The uploader gives up while the server is stopping: its request was aborted, which is
      // worth one line at warn, not an error with a stack trace.
      await log.stopping;
      for (const c of [upload, apiUpload]) {
        c.close();
        conns.splice(conns.indexOf(c), 1);
      }
      // The guard only ends a run that would otherwise hang; the assertion is the bound below.
      const guard = setTimeout(() => child.kill("SIGKILL"), 4 * SHUTDOWN_BOUND_SECONDS * 1000);
      const status = await child.status;
      const seconds = (performance.now() - signalled) / 1000;
      clearTimeout(guard);
      await reader.cancel().catch(() => {});
      ok(
        seconds < SHUTDOWN_BOUND_SECONDS,
        `exited ${seconds.toFixed(1)} s after SIGTERM; the bound is ${SHUTDOWN_BOUND_SECONDS} s`,
      );
      equal(status.code, 0);
      await log.done;
      ok(log.lines.some((l) => l.msg === "stopping"));
      deepStrictEqual(
        log.lines.filter((l) => l.level === "error" || "raw" in l || "stack" in l),
        [],
        "uploads given up on while stopping are no errors",
      );
    } finally {
      for (const c of conns) {
        try {
          c.close();
        } catch { /* closed by the server */ }
      }
      try {
        child.kill("SIGKILL");
      } catch { /* already gone */ }
      await Deno.remove(dir, { recursive: true });
    }
  },
});
