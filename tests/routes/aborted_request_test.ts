/**
 * A request whose body ends early (the client gave up, or the server is stopping) is not an
 * error of statusd's (issue #27): it is logged as one line at warn, without a stack trace, and
 * answered 400 on every kind of endpoint that reads a body.
 */
import { deepStrictEqual, equal, ok } from "node:assert/strict";
import { createServer } from "../../routes/mod.ts";
import { account, key, testContext } from "../support/accounts.ts";

function abortedBody(first: string): ReadableStream<Uint8Array> {
  return new ReadableStream({
    start(controller) {
      controller.enqueue(new TextEncoder().encode(first));
    },
    pull(controller) {
      controller.error(new DOMException("the client went away", "AbortError"));
    },
  });
}

Deno.test("an upload aborted half way is one warn line and a 400, never an error with a stack", async () => {
  await using ctx = testContext();
  const who = await account(ctx, "owner@example.com");
  const secret = await key(ctx, who, "rw", ["monitors:read", "monitors:write"]);
  const app = createServer({ app: ctx });
  const cases: [string, Record<string, string>, string][] = [
    ["/sign-in", { "content-type": "application/x-www-form-urlencoded" }, "email=a"],
    [
      "/api/user/monitors/suggestions",
      { "content-type": "application/json", "x-api-key": secret },
      '{"files":[',
    ],
    ["/oauth/register", { "content-type": "application/json" }, '{"client_name":'],
  ];
  for (const [path, headers, first] of cases) {
    ctx.lines.length = 0;
    const res = await app.request(path, {
      method: "POST",
      headers,
      body: abortedBody(first),
      // @ts-ignore: a streamed request body needs duplex in fetch's types
      duplex: "half",
    });
    await res.body?.cancel();
    ok(res.status === 400 || res.status === 403, `${path}: ${res.status}`);
    const levels = ctx.lines.map((l) => JSON.parse(l)).filter((l) => l.level !== "debug");
    deepStrictEqual(
      levels.filter((l) => l.level === "error"),
      [],
      `${path}: ${JSON.stringify(levels)}`,
    );
    ok(levels.every((l) => !("stack" in l)), path);
    if (res.status === 400) {
      equal(levels.filter((l) => l.msg === "request aborted before its body was read").length, 1);
    }
  }
});
