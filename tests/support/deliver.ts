/**
 * The delivery worker as tests run it between evaluations: every delivery due now is sent, by
 * the real worker, to receivers that all answer 200 (or all fail, `answer: 503`), so what an
 * alert reached is what a running statusd would have sent by then.
 * @module
 */
import type { AppContext } from "../../app/mod.ts";
import { silentLogger } from "../../log.ts";
import { createDeliveryWorker } from "../../outbound/worker.ts";
import type { SendResult } from "../../outbound/transport.ts";

/** Sends what is due at the context's clock; resolves with how many sends were made. */
export async function deliverDue(ctx: AppContext, answer: 200 | 503 = 200): Promise<number> {
  let sends = 0;
  const result = (): Promise<SendResult> => {
    sends++;
    const ok = answer === 200;
    return Promise.resolve({
      ok,
      status: answer,
      reply: null,
      latencyMs: 1,
      retryAfterMs: null,
      permanent: false,
      error: ok ? null : `HTTP ${answer}`,
    });
  };
  const worker = createDeliveryWorker({
    store: ctx.store,
    http: { send: result },
    mail: { send: result },
    clock: ctx.clock,
    log: silentLogger,
    instanceId: "tests",
    options: { random: () => 0.5 },
  });
  for (let i = 0; i < 50; i++) {
    const n = await worker.runOnce();
    await worker.stop();
    if (n === 0) break;
  }
  return sends;
}
