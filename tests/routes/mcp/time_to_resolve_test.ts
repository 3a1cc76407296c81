/**
 * `get_service_status` tells an agent the vendor's typical time to resolve (p50/p90 minutes per
 * impact over the last 90 days), through the real SDK client, which checks the output schema.
 */
import { deepStrictEqual, equal } from "node:assert/strict";
import { ACME, addAcme } from "../../support/pages.ts";
import { Client, mcpRig, StreamableHTTPClientTransport } from "./_rig.ts";

Deno.test("get_service_status: timeToResolve with known answers", async () => {
  const rig = await mcpRig();
  await addAcme(rig.ctx.store);
  const client = new Client({ name: "ttr-test", version: "1.0.0" });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(rig.mcpUrl), {
      requestInit: { headers: { "X-API-Key": rig.keys.all } },
    }),
  );
  try {
    const r = await client.callTool({ name: "get_service_status", arguments: { slug: "acme" } });
    equal(r.isError, undefined);
    const t = (r.structuredContent as { timeToResolve: Record<string, unknown> }).timeToResolve;
    deepStrictEqual(t, {
      windowDays: 90,
      all: ACME.timeToResolve.all,
      byImpact: {
        CRITICAL: { incidents: 0, p50Minutes: null, p90Minutes: null },
        MAJOR: ACME.timeToResolve.MAJOR,
        MINOR: ACME.timeToResolve.MINOR,
        NONE: { incidents: 0, p50Minutes: null, p90Minutes: null },
      },
    });
    const { tools } = await client.listTools();
    const tool = tools.find((x) => x.name === "get_service_status")!;
    equal(
      typeof (tool.outputSchema?.properties as Record<string, unknown>).timeToResolve,
      "object",
    );
  } finally {
    await client.close();
    await rig.close();
  }
});
