/**
 * Who may use the MCP server at `/api/mcp`: an API key or an OAuth access token issued here,
 * holding `mcp:invoke`, of an account on the Pro plan or above. The endpoint asks this verb
 * for its caller; each tool then runs verbs that check their own access.
 * @module
 */
import { type Principal, Unauthorized } from "../domain/mod.ts";
import { authenticate } from "./auth.ts";
import type { AppContext } from "./context.ts";
import { authorize, MCP_PLAN, USE_MCP } from "./policy.ts";

export { MCP_PLAN, USE_MCP };

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
