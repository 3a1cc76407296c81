/**
 * Reading health through MCP, with the real SDK client (which validates every
 * `structuredContent` against the tool's `outputSchema`): `get_service_status` says, for each
 * error kind, that statusd cannot read the vendor, why and since when; `list_services` filters
 * by reading state.
 */
import assert from "node:assert/strict";
import { toIso } from "../../../domain/mod.ts";
import { FAILING, NOW, readingRig, T0 } from "../../support/reading_rig.ts";
import { Client, StreamableHTTPClientTransport } from "./_rig.ts";

type Structured = Record<string, unknown>;
type Reading = {
  state: string;
  summary: string;
  consecutiveFailures: number;
  lastAttemptAt: string | null;
  error: { kind: string; httpStatus: number | null; message: string; since: string } | null;
  notes: string[];
};

Deno.test("reading health through MCP", async (t) => {
  const rig = await readingRig();
  const client = new Client({ name: "reading-test", version: "1.0.0" });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${rig.url}/api/mcp`), {
      requestInit: { headers: { "X-API-Key": rig.key } },
    }),
  );
  const call = async (name: string, args: Structured) => {
    const r = await client.callTool({ name, arguments: args });
    assert.notEqual(r.isError, true, JSON.stringify(r.content));
    return r.structuredContent as Structured;
  };
  try {
    await t.step("the outputSchema of get_service_status declares reading", async () => {
      const { tools } = await client.listTools();
      const tool = tools.find((x) => x.name === "get_service_status")!;
      const props = tool.outputSchema?.properties as Record<string, { properties?: object }>;
      assert.ok(props.reading?.properties && "error" in props.reading.properties);
      assert.match(tool.description ?? "", /reading/);
    });

    await t.step("get_service_status: each error kind, with HTTP status and since", async () => {
      for (const f of FAILING) {
        const data = await call("get_service_status", { slug: f.slug });
        assert.equal(data.status, "UNKNOWN", f.slug);
        const r = data.reading as Reading;
        assert.equal(r.state, "failing", f.slug);
        assert.equal(r.error?.kind, f.kind, f.slug);
        assert.equal(r.error?.httpStatus, f.httpStatus, f.slug);
        assert.match(r.error!.message, f.message, f.slug);
        assert.equal(r.error?.since, toIso(T0), f.slug);
        assert.equal(r.consecutiveFailures, 2, f.slug);
        assert.equal(r.lastAttemptAt, toIso(NOW), f.slug);
      }
    });

    await t.step("unsupported, never read, fresh with notes", async () => {
      const okta = (await call("get_service_status", { slug: "okta-like" })).reading as Reading;
      assert.equal(okta.state, "unsupported");
      assert.match(okta.summary, /^unsupported: no machine-readable status/);
      const fresh = (await call("get_service_status", { slug: "new-co" })).reading as Reading;
      assert.equal(fresh.state, "never_read");
      const notes = (await call("get_service_status", { slug: "notes-co" })).reading as Reading;
      assert.equal(notes.state, "fresh");
      assert.equal(notes.notes[0], "incidents[0].started_at: no start time");
    });

    await t.step("list_services filters by reading and says each one's state", async () => {
      const failing = await call("list_services", { reading: "failing", limit: 100 });
      const services = failing.services as Structured[];
      assert.deepStrictEqual(
        services.map((s) => s.slug).sort(),
        FAILING.map((f) => f.slug).sort(),
      );
      for (const s of services) {
        assert.equal((s.reading as Structured).state, "failing");
      }
      const unsupported = await call("list_services", { reading: "unsupported" });
      assert.deepStrictEqual(
        (unsupported.services as Structured[]).map((s) => s.slug),
        ["okta-like"],
      );
    });
  } finally {
    await client.close();
    await rig.close();
  }
});
