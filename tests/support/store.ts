/**
 * Fresh migrated stores for tests: in memory, or in a temp file (restart and crash tests).
 * @module
 */
import { join } from "node:path";
import { type Db, openStore } from "../../store/mod.ts";

/** A new in-memory store with every migration applied. */
export function memoryStore(): Db {
  return openStore(":memory:");
}

/** A store in a fresh temp folder; `reopen` opens the same file again, `remove` deletes it. */
export interface TempStore {
  readonly db: Db;
  readonly path: string;
  reopen(): Db;
  remove(): void;
}

/** A new migrated store in a temp file (WAL mode, as in production). */
export function tempStore(): TempStore {
  const dir = Deno.makeTempDirSync({ prefix: "statusd-test-" });
  const path = join(dir, "statusd.db");
  return {
    db: openStore(path),
    path,
    reopen: () => openStore(path),
    remove: () => Deno.removeSync(dir, { recursive: true }),
  };
}
