/**
 * Integer query parameters accept decimal digits only: `limit=0x10` is a 400, never 16, on
 * every operation that takes one (they share one schema helper).
 */
import { deepStrictEqual, equal } from "node:assert/strict";
import { account, key } from "../../support/accounts.ts";
import { addVendor, apiRig, body } from "../../support/api.ts";

/** Spellings `Number()` would read as a number but an integer parameter must refuse. */
const NOT_DECIMAL = ["0x10", "0b1", "0o7", "1e1", "+5", "-0", "5.0", " 5", "5 ", "1_0", "１６", ""];

Deno.test("every integer query parameter refuses hex, exponents, signs and spaces with 400", async () => {
  const r = apiRig();
  try {
    await addVendor(r.store, { slug: "acme" });
    const owner = await account(r.ctx, "owner@example.com");
    const secret = await key(r.ctx, owner, "sla", ["sla:read"]);
    const cases: [string, string, Record<string, string>?][] = [
      ["/api/services", "limit"],
      ["/api/services", "page"],
      ["/api/incidents", "limit"],
      ["/api/incidents", "page"],
      ["/api/status/providers-overview", "limit"],
      ["/api/services/acme/history", "days"],
      ["/api/user/services/acme/sla", "days", { "X-API-Key": secret }],
      ["/api/events", "lastEventId"],
    ];
    for (const [path, name, headers] of cases) {
      for (const value of NOT_DECIMAL) {
        const res = await body(
          await r.get(`${path}?${name}=${encodeURIComponent(value)}`, headers),
        );
        equal(res.status, 400, `${path}?${name}=${value}`);
        equal(res.json.error, "invalid_request");
        deepStrictEqual((res.json.issues as { parameter: string }[])[0]!.parameter, name);
      }
    }
  } finally {
    await r.close();
  }
});

Deno.test("decimal digits still work, leading zeros included", async () => {
  const r = apiRig();
  try {
    for (let i = 0; i < 20; i++) {
      await addVendor(r.store, { slug: `v${String(i).padStart(2, "0")}` });
    }
    const page = await body(await r.get("/api/services?limit=16&page=001"));
    equal(page.status, 200);
    equal(page.json.size, 16);
    equal(page.json.page, 1);
    equal((page.json.content as unknown[]).length, 4);
    const history = await body(await r.get("/api/services/v00/history?days=007"));
    equal(history.json.days, 7);
  } finally {
    await r.close();
  }
});

Deno.test("a number out of range says the allowed range", async () => {
  const r = apiRig();
  try {
    await addVendor(r.store, { slug: "acme" });
    for (
      const [path, message] of [
        ["/api/services?limit=9999", "expected a whole number from 1 to 500"],
        ["/api/incidents?limit=0", "expected a whole number from 1 to 500"],
        ["/api/services/acme/history?days=1000", "expected a whole number from 1 to 90"],
      ]
    ) {
      const res = await body(await r.get(path!));
      equal(res.status, 400, path);
      deepStrictEqual((res.json.issues as { message: string }[])[0]!.message, message, path);
      equal(String(res.json.message).includes(message!), true);
    }
  } finally {
    await r.close();
  }
});
