/**
 * Another account's private board address is never revealed (issue #27): a private board's slug
 * is its account's own, so a second account can take the same slug (privately or publicly)
 * without learning the first exists; `/api/boards/{slug}` shows each caller their own private
 * board and everyone the public one; making a board public is refused only for an address a
 * public board already holds, which anyone can see.
 */
import { equal } from "node:assert/strict";
import { createServer } from "../../../routes/mod.ts";
import { account, key, testContext } from "../../support/accounts.ts";

Deno.test("private board slugs stay private: the same slug elsewhere is free, public ones are shared", async () => {
  await using ctx = testContext();
  const app = createServer({ app: ctx });
  const keyOf = async (email: string) =>
    await key(ctx, await account(ctx, email), "k", ["monitors:read", "monitors:write"]);
  const a = await keyOf("a@example.com");
  const b = await keyOf("b@example.com");
  const send = (secret: string, method: string, path: string, body?: unknown) =>
    app.request(path, {
      method,
      headers: { "x-api-key": secret, "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  const created = await send(a, "POST", "/api/user/boards", { slug: "acme-status", title: "A" });
  equal(created.status, 201, await created.clone().text());
  const aBoard = await created.json();
  equal(aBoard.slug, "acme-status");

  const bPrivate = await send(b, "POST", "/api/user/boards", { slug: "acme-status", title: "B" });
  equal(bPrivate.status, 201, "the same private slug in another account");
  const bBoard = await bPrivate.json();
  equal(bBoard.slug, "acme-status");
  const bPublic = await send(b, "PATCH", `/api/user/boards/${bBoard.id}`, { public: true });
  equal(bPublic.status, 200, "made public: nothing public held the address");
  equal((await bPublic.json()).slug, "acme-status");

  equal((await (await send(a, "GET", "/api/boards/acme-status")).json()).title, "A", "own first");
  equal((await (await send(b, "GET", "/api/boards/acme-status")).json()).title, "B");
  equal((await (await app.request("/api/boards/acme-status")).json()).title, "B", "the public one");

  const aPublic = await send(a, "PATCH", `/api/user/boards/${aBoard.id}`, { public: true });
  equal(aPublic.status, 400, "a public board holds the address (anyone can see it)");
  const c = await keyOf("c@example.com");
  const cPublic = await send(c, "POST", "/api/user/boards", {
    slug: "acme-status",
    title: "C",
    public: true,
  });
  equal(cPublic.status, 400);
  const renamed = await send(a, "PATCH", `/api/user/boards/${aBoard.id}`, { slug: "acme-2" });
  equal((await renamed.json()).slug, "acme-2");
  equal((await app.request("/api/boards/acme-2")).status, 404, "still private to others");
  equal((await send(a, "GET", "/api/boards/acme-2")).status, 200);
});
