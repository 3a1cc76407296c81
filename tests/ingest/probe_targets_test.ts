/**
 * What statusd probes of a vendor and what an answer means.
 * @module
 */
import { deepStrictEqual, equal } from "node:assert/strict";
import type { FetchOutcome } from "../../ingest/http.ts";
import {
  ANSWER_MEMORY_MS,
  probeTargetsOf,
  roundOf,
  verdictOf,
} from "../../ingest/probe_targets.ts";

const page = "https://status.acme.com";

Deno.test("targets: the catalog's probes as written, else the vendor's sites but the status page's host", () => {
  deepStrictEqual(
    probeTargetsOf(
      { domains: ["acme.com", "acme.io", "status.acme.com"], statusPageUrl: page },
      undefined,
    ),
    ["https://acme.com/", "https://acme.io/"],
    "derived from domains: never the status page's host",
  );
  deepStrictEqual(
    probeTargetsOf({ domains: ["acme.com"], statusPageUrl: page }, [
      "https://api.acme.com/v1/health",
      "https://status.acme.com:8443/api/ping",
      "ftp://acme.com/",
    ]),
    ["https://api.acme.com/v1/health", "https://status.acme.com:8443/api/ping"],
    "an explicit list is used as written: another port of the page's host is a real target",
  );
  deepStrictEqual(probeTargetsOf({ domains: [], statusPageUrl: page }, undefined), []);
  equal(
    probeTargetsOf({ domains: ["a.com", "b.com", "c.com", "d.com"], statusPageUrl: page }, [])
      .length,
    3,
    "at most three",
  );
});

function failed(reason: string, status?: number): FetchOutcome {
  return {
    kind: "failed",
    reason: reason as never,
    detail: "",
    latencyMs: 1,
    ...(status ? { status } : {}),
  };
}

Deno.test("verdicts: any answer below 500 is up; no answer or 5xx is down; a refused address is neither", () => {
  equal(verdictOf({ kind: "not_modified", latencyMs: 1 }), "up");
  equal(verdictOf(failed("http_status", 401)), "up");
  equal(verdictOf(failed("http_status", 404)), "up");
  equal(verdictOf(failed("http_status", 502)), "down");
  equal(verdictOf(failed("http_status", 503)), "down");
  equal(verdictOf(failed("network")), "down");
  equal(verdictOf(failed("timeout")), "down");
  equal(verdictOf(failed("too_large")), "up");
  equal(verdictOf(failed("redirect_loop")), "up");
  equal(verdictOf(failed("refused_address")), "refused");
});

Deno.test("a round counts targets that answered within a week; the memory moves once an hour", () => {
  const now = 10 * ANSWER_MEMORY_MS;
  const r = roundOf(
    [
      { url: "https://a.com/", verdict: "down" },
      { url: "https://b.com/", verdict: "down" },
      { url: "https://c.com/", verdict: "up" },
      { url: "https://d.com/", verdict: "down" },
    ],
    {
      "https://a.com/": now - 60_000,
      "https://b.com/": now - ANSWER_MEMORY_MS - 1,
      "https://c.com/": now - 60_000,
    },
    now,
  );
  equal(r.total, 2, "a and c: b answered too long ago, d never");
  equal(r.failed, 1);
  deepStrictEqual(r.failing, ["a.com"]);
  deepStrictEqual(r.answered, {
    "https://a.com/": now - 60_000,
    "https://c.com/": now - 60_000,
  }, "b is forgotten");
  const later = roundOf([{ url: "https://c.com/", verdict: "up" }], r.answered, now + 3_600_000);
  deepStrictEqual(later.answered, { "https://c.com/": now + 3_600_000 });
});
