/**
 * The store conformance suite (tests/store/conformance/) on SQLite, in memory.
 * @module
 */
import { openSqliteStore } from "../../store/mod.ts";
import { TEST_COMMIT_WINDOWS } from "../support/store.ts";
import { storeConformance } from "./conformance/mod.ts";

storeConformance(
  "sqlite",
  () => Promise.resolve(openSqliteStore(":memory:", { commitWindows: TEST_COMMIT_WINDOWS })),
);
