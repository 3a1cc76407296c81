/**
 * Roles bind every credential (one table, app ROLE_SCOPES): a MEMBER's consent never grants
 * `monitors:write` or `alerts:write`, so an agent it connects cannot remove the owner's monitors
 * or acknowledge alerts over MCP; tokens and keys are checked against the current role of the
 * member who approved or made them, so a demotion takes write away at once.
 * @module
 */
import assert from "node:assert/strict";
import {
  addMember,
  createKey,
  createMonitor,
  type Membership,
  setMemberRole,
} from "../../../app/mod.ts";
import { PASSWORD } from "../../support/accounts.ts";
import {
  authorizeUrl,
  Client,
  consent,
  grantFor,
  type McpRig,
  mcpRig,
  pkcePair,
  registerClient,
  StreamableHTTPClientTransport,
} from "./_rig.ts";

type Structured = Record<string, unknown>;

/** What an agent that changes things asks for. */
const WRITER = "mcp:invoke status:read monitors:read monitors:write alerts:read alerts:write";

async function connect(rig: McpRig, bearer: string): Promise<Client> {
  const client = new Client({ name: "roles-test", version: "1.0.0" });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(rig.mcpUrl), {
      requestInit: { headers: { authorization: `Bearer ${bearer}` } },
    }),
  );
  return client;
}

async function call(client: Client, name: string, args: Record<string, unknown>) {
  const r = await client.callTool({ name, arguments: args });
  const text = (r.content as { type: string; text: string }[])[0]?.text ?? "";
  return { isError: r.isError === true, data: r.structuredContent as Structured, text };
}

/** A person added to the Pro account with `role`. */
function person(rig: McpRig, email: string, role: "ADMIN" | "MEMBER"): Promise<Membership> {
  return addMember(rig.ctx, { ownerEmail: "owner@pro.test", email, password: PASSWORD, role });
}

Deno.test("a MEMBER's consent grants no write: its agent cannot remove monitors or acknowledge alerts", async () => {
  const rig = await mcpRig();
  const owner = { kind: "admin", account: rig.pro.account } as const;
  try {
    const monitor = await createMonitor(rig.ctx, owner, { service: "github" });
    const member = await person(rig, "member@pro.test", "MEMBER");
    // The page says what it will not grant.
    const redirect = "http://localhost:40001/cb";
    const u = authorizeUrl(
      rig,
      await registerClient(rig, redirect),
      redirect,
      pkcePair().challenge,
      "mcp:invoke monitors:read monitors:write alerts:write",
    );
    const { page } = await consent(u, await rig.sessionCookie(member), "deny");
    assert.match(page, /monitors:write<\/code>.*not granted: as a member you cannot give it this/s);
    assert.doesNotMatch(page, /monitors:read<\/code>[^<]*<strong>/);

    const grant = await grantFor(rig, member, undefined, WRITER);
    const agent = await connect(rig, grant.access);
    try {
      const listed = await call(agent, "list_monitors", {});
      assert.equal(listed.isError, false, listed.text);
      const removed = await call(agent, "remove_monitor", { id: monitor.id });
      assert.equal(removed.isError, true);
      assert.match(removed.text, /monitors:write/);
      const ack = await call(agent, "acknowledge_alert", { id: "dlv_anything" });
      assert.equal(ack.isError, true);
      assert.match(ack.text, /alerts:write/);
    } finally {
      await agent.close();
    }
    const still = await rig.ctx.store.monitors.get(rig.pro.account.id, monitor.id);
    assert.ok(still, "the owner's monitor is still there");
  } finally {
    await rig.close();
  }
});

Deno.test("a demoted admin's token and a demoted owner's key lose write at once", async () => {
  const rig = await mcpRig();
  try {
    const admin = await person(rig, "admin@pro.test", "ADMIN");
    const grant = await grantFor(rig, admin, undefined, WRITER);
    const agent = await connect(rig, grant.access);
    try {
      const added = await call(agent, "add_monitor", { service: "stripe" });
      assert.equal(added.isError, false, added.text);
      await setMemberRole(rig.ctx, { email: "admin@pro.test", role: "MEMBER" });
      const refused = await call(agent, "add_monitor", { service: "cloudflare" });
      assert.equal(refused.isError, true);
      assert.match(refused.text, /monitors:write/);
    } finally {
      await agent.close();
    }

    // A second owner makes a key, signed in; then is made a member.
    const second = await addMember(rig.ctx, {
      ownerEmail: "owner@pro.test",
      email: "second@pro.test",
      password: PASSWORD,
      role: "OWNER",
    });
    const principal = { kind: "session", account: second.account, member: second.member } as const;
    const { secret } = await createKey(rig.ctx, principal, {
      name: "deploys",
      scopes: ["monitors:write", "monitors:read"],
    });
    const post = () =>
      fetch(`${rig.url}/api/user/monitors`, {
        method: "POST",
        headers: { "x-api-key": secret, "content-type": "application/json" },
        body: JSON.stringify({ service: "cloudflare" }),
      });
    const made = await post();
    await made.body?.cancel();
    assert.equal(made.status, 201);
    await setMemberRole(rig.ctx, { email: "second@pro.test", role: "MEMBER" });
    const refused = await post();
    assert.equal(refused.status, 403);
    const body = await refused.json();
    assert.equal(body.error, "insufficient_scope");
    assert.equal(body.requiredScope, "monitors:write");
    const read = await fetch(`${rig.url}/api/user/monitors`, { headers: { "x-api-key": secret } });
    await read.body?.cancel();
    assert.equal(read.status, 200, "reading is a member's to do");
    // The account's last owner cannot be demoted.
    await assert.rejects(
      () => setMemberRole(rig.ctx, { email: "owner@pro.test", role: "ADMIN" }),
      /only owner/,
    );
  } finally {
    await rig.close();
  }
});
