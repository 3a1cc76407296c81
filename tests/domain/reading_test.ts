import { deepStrictEqual, equal, match } from "node:assert/strict";
import {
  boundNotes,
  isPlatformMiss,
  MINUTE_MS,
  READING_NOTE_MAX_CHARS,
  READING_NOTES_MAX,
  type ReadingFacts,
  readingOf,
  readingState,
  REDETECT_AFTER_MISSES,
  REDETECT_EVERY_MS,
  redetectionDue,
} from "../../domain/mod.ts";

const NOW = Date.UTC(2026, 10, 20, 12);
const POLICY = { stableSeconds: 300 };
const READ: ReadingFacts = {
  platform: "statuspage",
  listedPlatform: "statuspage",
  detectedPlatform: null,
  unsupportedReason: null,
  lastAttemptAt: NOW - MINUTE_MS,
  lastSuccessAt: NOW - MINUTE_MS,
  consecutiveFailures: 0,
  error: null,
  notes: [],
  redetection: null,
};

Deno.test("reading state: fresh, stale after three stable intervals, failing, unsupported, never read", () => {
  equal(readingState(READ, NOW, POLICY), "fresh");
  equal(readingState({ ...READ, lastSuccessAt: NOW - 15 * MINUTE_MS }, NOW, POLICY), "fresh");
  equal(readingState({ ...READ, lastSuccessAt: NOW - 15 * MINUTE_MS - 1 }, NOW, POLICY), "stale");
  const failing = {
    ...READ,
    consecutiveFailures: 3,
    error: {
      kind: "timeout" as const,
      httpStatus: null,
      message: "no answer",
      since: NOW - 5 * MINUTE_MS,
    },
  };
  equal(readingState(failing, NOW, POLICY), "failing", "failing wins over a fresh success");
  equal(
    readingState({ ...READ, platform: "html", listedPlatform: "html" }, NOW, POLICY),
    "unsupported",
  );
  equal(
    readingState(
      { ...READ, platform: "unknown", listedPlatform: "unknown", detectedPlatform: "unknown" },
      NOW,
      POLICY,
    ),
    "unsupported",
    "detection found nothing",
  );
  equal(
    readingState(
      {
        ...READ,
        platform: "unknown",
        listedPlatform: "unknown",
        lastAttemptAt: null,
        lastSuccessAt: null,
      },
      NOW,
      POLICY,
    ),
    "never_read",
    "not detected yet",
  );
  equal(readingState({ ...READ, unsupportedReason: "no adapter" }, NOW, POLICY), "unsupported");
  equal(
    readingState({ ...READ, lastAttemptAt: null, lastSuccessAt: null }, NOW, POLICY),
    "never_read",
  );

  const r = readingOf(failing, NOW, POLICY);
  equal(
    r.summary,
    "failing: timeout since 2026-11-20 11:55 UTC (3 attempts in a row): no answer",
  );
  const http = readingOf(
    {
      ...failing,
      error: { kind: "http_status", httpStatus: 503, message: "HTTP 503 from x", since: NOW },
    },
    NOW,
    POLICY,
  );
  match(http.summary, /^failing: HTTP 503 since/);
  const html = readingOf(
    { ...READ, platform: "html", listedPlatform: "html", error: failing.error },
    NOW,
    POLICY,
  );
  equal(html.error, null, "an unsupported vendor has no error");
  equal(
    html.summary,
    "unsupported: no machine-readable status: the vendor publishes its status only as a web page",
  );
});

Deno.test("notes are bounded in number and length", () => {
  deepStrictEqual(boundNotes(["a", "b"]), ["a", "b"]);
  const many = boundNotes(Array.from({ length: 30 }, (_, i) => `n${i}`));
  equal(many.length, READING_NOTES_MAX);
  equal(many.at(-1), "… and 21 more notes not kept");
  const long = boundNotes(["x".repeat(1000)])[0]!;
  equal(long.length, READING_NOTE_MAX_CHARS);
  equal(long.at(-1), "…");
});

Deno.test("re-detection: platform misses, five in a row, at most once a day", () => {
  equal(isPlatformMiss("http_status", 404), true);
  equal(isPlatformMiss("http_status", 410), true);
  equal(isPlatformMiss("http_status", 503), false);
  equal(isPlatformMiss("bad_payload", 200), true);
  equal(isPlatformMiss("not_machine_readable", 200), true);
  equal(isPlatformMiss("timeout", null), false);
  equal(isPlatformMiss("network", null), false);
  equal(redetectionDue(REDETECT_AFTER_MISSES - 1, null, NOW), false);
  equal(redetectionDue(REDETECT_AFTER_MISSES, null, NOW), true);
  equal(redetectionDue(REDETECT_AFTER_MISSES, NOW - REDETECT_EVERY_MS + 1, NOW), false);
  equal(redetectionDue(REDETECT_AFTER_MISSES, NOW - REDETECT_EVERY_MS, NOW), true);
});
