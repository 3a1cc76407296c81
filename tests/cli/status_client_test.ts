import { equal, rejects } from "node:assert/strict";
import { createClient } from "../../cli/status/client.ts";
import { ApiFailure, EXIT } from "../../cli/status/exit.ts";

const EMPTY_PAGE = { content: [], totalElements: 0, page: 0, size: 5, totalPages: 0 };

/** A fetch that fails with a network error `failures` times, then answers `body`. */
function flakyFetch(failures: number, body: unknown) {
  let calls = 0;
  const fn = (() => {
    calls++;
    if (calls <= failures) return Promise.reject(new TypeError("connection reset by peer"));
    return Promise.resolve(Response.json(body));
  }) as typeof fetch;
  return { fn, calls: () => calls };
}

Deno.test("one network error is retried once, and the answer is used", async () => {
  const f = flakyFetch(1, EMPTY_PAGE);
  const client = createClient({ baseUrl: "http://127.0.0.1:9", timeoutMs: 1000, fetch: f.fn });
  const page = await client.searchServices("git", 5);
  equal(page.totalElements, 0);
  equal(f.calls(), 2);
});

Deno.test("a second network error gives up with exit 3 and a one-line reason", async () => {
  const f = flakyFetch(2, EMPTY_PAGE);
  const client = createClient({ baseUrl: "http://127.0.0.1:9", timeoutMs: 1000, fetch: f.fn });
  await rejects(client.searchServices("git", 5), (err: unknown) => {
    equal(err instanceof ApiFailure, true);
    equal((err as ApiFailure).exitCode, EXIT.apiUnreachable);
    equal(
      (err as Error).message,
      "Cannot reach the statusd API at http://127.0.0.1:9: connection reset by peer",
    );
    return true;
  });
  equal(f.calls(), 2);
});
