/**
 * Who may use the MCP server at `/api/mcp`: an API key or an OAuth access token issued here,
 * holding `mcp:invoke`, of an account on the Pro plan or above. The endpoint asks this verb
 * for its caller; each tool then runs verbs that check their own access.
 * @module
 */
import { type Principal, Unauthorized } from "../domain/mod.ts";
import { authenticate } from "./auth.ts";
import type { AppContext } from "./context.ts";
import { type Access, authorize } from "./policy.ts";

/** Plan an account needs to use MCP (and to connect MCP clients). */
export const MCP_PLAN = "PRO";

/** Who may call `/api/mcp`. */
export const USE_MCP: Access = {
  credential: "key",
  scopes: ["mcp:invoke"],
  plan: { plan: MCP_PLAN, feature: "MCP access" },
};

/** A caller of MCP tools: an API key or an OAuth access token (sessions never reach /api/mcp). */
export type McpCaller = Extract<Principal, { kind: "api_key" } | { kind: "oauth" }>;

/**
 * The caller behind `credential` (an API key or access token), allowed to use MCP: no
 * credential, an unknown one or a signed-in session → `Unauthorized`; lacking `mcp:invoke` →
 * `InsufficientScope`; an account below {@link MCP_PLAN} → `PlanRequired`.
 */
export async function mcpCaller(ctx: AppContext, credential: string | null): Promise<McpCaller> {
  if (credential === null || credential === "") {
    throw new Unauthorized("Send an API key with the mcp:invoke scope or an OAuth access token");
  }
  const who = await authenticate(ctx, credential);
  if (who.kind !== "api_key" && who.kind !== "oauth") throw new Unauthorized();
  authorize(who, USE_MCP);
  return who;
}
