import { deepStrictEqual, equal, ok } from "node:assert/strict";
import { createLimiter } from "../../ingest/limiter.ts";

Deno.test("the limiter never runs more tasks at once than its concurrency", async () => {
  const limiter = createLimiter({ concurrency: 3, hostSpacingMs: 0 });
  let running = 0, peak = 0;
  await Promise.all(Array.from({ length: 20 }, (_, i) =>
    limiter.run(`host-${i}`, async () => {
      running++;
      peak = Math.max(peak, running);
      await new Promise((r) => setTimeout(r, 2));
      running--;
    })));
  equal(peak, 3);
  equal(limiter.active, 0);
});

Deno.test("a host waiting for its spacing never holds back tasks for other hosts", async () => {
  const limiter = createLimiter({ concurrency: 1, hostSpacingMs: 200 });
  const order: string[] = [];
  const task = (name: string) => () => {
    order.push(name);
    return Promise.resolve();
  };
  await Promise.all([
    limiter.run("a", task("a1")),
    limiter.run("a", task("a2")),
    limiter.run("b", task("b1")),
    limiter.run("c", task("c1")),
  ]);
  deepStrictEqual(order, ["a1", "b1", "c1", "a2"]);
});

Deno.test("a failing task rejects its own promise and frees its slot", async () => {
  const limiter = createLimiter({ concurrency: 1, hostSpacingMs: 0 });
  const failed = limiter.run("x", () => Promise.reject(new Error("boom")));
  const next = limiter.run("y", () => Promise.resolve(7));
  await failed.then(() => ok(false), (err) => equal(err.message, "boom"));
  equal(await next, 7);
});

Deno.test("a paused host (Retry-After) starts nothing until its pause ends; other hosts go on", async () => {
  const limiter = createLimiter({ concurrency: 2, hostSpacingMs: 0 });
  const order: string[] = [];
  const task = (name: string) => () => {
    order.push(name);
    return Promise.resolve();
  };
  limiter.pause("slow", 150);
  limiter.pause("slow", 10); // a shorter pause never cuts a longer one
  await Promise.all([
    limiter.run("slow", task("slow1")),
    limiter.run("fast", task("fast1")),
    limiter.run("fast", task("fast2")),
  ]);
  deepStrictEqual(order, ["fast1", "fast2", "slow1"]);
});

Deno.test("each host's tasks start in the order they came, spaced, while many hosts wait", async () => {
  const spacing = 30;
  // Start times as the limiter saw them, on the clock it spaces by.
  const at = new Map<string, number[]>();
  const limiter = createLimiter({
    concurrency: 3,
    hostSpacingMs: spacing,
    onStart: (host, t) => at.set(host, [...at.get(host) ?? [], t]),
  });
  const starts = new Map<string, { task: number }[]>();
  const runs = [];
  for (let task = 0; task < 4; task++) {
    for (let h = 0; h < 50; h++) {
      const host = `host-${h}`;
      runs.push(limiter.run(host, async () => {
        const list = starts.get(host) ?? [];
        list.push({ task });
        starts.set(host, list);
        await new Promise((r) => setTimeout(r, 1));
      }));
    }
  }
  equal(limiter.queued + limiter.active, 200);
  await Promise.all(runs);
  equal(limiter.queued, 0);
  equal(starts.size, 50);
  for (const [host, list] of starts) {
    deepStrictEqual(list.map((s) => s.task), [0, 1, 2, 3], host);
    const times = at.get(host)!;
    equal(times.length, 4);
    for (let i = 1; i < times.length; i++) {
      ok(times[i]! - times[i - 1]! >= spacing, `${host}: starts ${spacing} ms apart`);
    }
  }
});
