/**
 * When each API key was last used, written in batches: at most once a minute per key, right
 * after the request that used it, never in the request's way.
 * @module
 */
import type { ApiKeyRecord, EpochMs, KeyStore } from "../domain/mod.ts";
import { MINUTE_MS } from "../domain/mod.ts";
import type { Logger } from "../log.ts";

/** Key uses waiting to be written: `lastUsedAt`, at most once a minute per key. */
export interface KeyUseRecorder {
  /** Queues a use of `key` at `now` (nothing when its stored `lastUsedAt` is under a minute old). */
  note(key: ApiKeyRecord, now: EpochMs): void;
  /** Writes the queued uses now (also done on its own right after the response). */
  flush(): Promise<void>;
}

/** A recorder writing through `keys`; a failed write is logged, never thrown at a request. */
export function createKeyUseRecorder(keys: KeyStore, log: Logger): KeyUseRecorder {
  let batch: Map<string, EpochMs> | null = null;
  /** The writes started so far, in order; `flush` waits for all of them. */
  let writing: Promise<void> = Promise.resolve();
  const write = async (uses: Map<string, EpochMs>) => {
    try {
      await keys.touch(uses);
    } catch (err) {
      log.warn("could not record API-key use", { error: String(err) });
    }
  };
  const flush = () => {
    const uses = batch;
    batch = null;
    if (uses?.size) writing = writing.then(() => write(uses));
    return writing;
  };
  return {
    note(key, now) {
      if (key.lastUsedAt !== null && now - key.lastUsedAt < MINUTE_MS) return;
      if (batch === null) {
        batch = new Map();
        setTimeout(flush, 0);
      }
      if (!batch.has(key.id)) batch.set(key.id, now);
    },
    flush,
  };
}
