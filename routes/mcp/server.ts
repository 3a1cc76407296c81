/**
 * `buildMcpServer(ctx, caller)`: a fresh `McpServer` for one request (stateless; the SDK
 * forbids reusing a server or transport across requests since 1.26) with every tool
 * registered. Each call checks the tool's own scopes, so a caller missing one gets a tool
 * error naming it rather than a tool that silently disappears from `tools/list`.
 * @module
 */
import type { AppContext } from "../../app/mod.ts";
import { holdsScope, InsufficientScope } from "../../domain/mod.ts";
import { type CallToolResult, McpServer } from "./sdk.ts";
import { READ_ONLY, type ToolCaller } from "./tool.ts";
import { toolError } from "./tool_error.ts";
import { TOOLS } from "./tools/mod.ts";

/** The MCP revision statusd speaks. */
export const PROTOCOL_VERSION = "2025-06-18";

/** `serverInfo` of `initialize` and of `/.well-known/mcp.json`. */
export const SERVER_INFO = { name: "statusd", title: "statusd", version: "1.0.0" } as const;

/** What the server tells the model about itself (InitializeResult.instructions). */
export const INSTRUCTIONS =
  "Read-only tools over statusd's normalised status data for cloud and SaaS vendors. Start " +
  "with list_services (or check_services for a pass/fail gate), then get_service_status, " +
  "get_component_status, list_incidents, get_service_history or get_uptime_report by slug.";

/** A new server exposing every tool to `caller`. */
export function buildMcpServer(ctx: AppContext, caller: ToolCaller): McpServer {
  const server = new McpServer(SERVER_INFO, {
    capabilities: { tools: { listChanged: false } },
    instructions: INSTRUCTIONS,
  });
  for (const tool of TOOLS) {
    server.registerTool(tool.name, {
      title: tool.title,
      description: tool.description,
      inputSchema: tool.input,
      outputSchema: tool.output,
      annotations: { title: tool.title, ...READ_ONLY },
    }, (args: unknown): CallToolResult => {
      try {
        for (const scope of tool.scopes) {
          if (!holdsScope(caller, scope)) throw new InsufficientScope(scope);
        }
        const data = tool.output.parse(tool.run(ctx, caller, tool.input.parse(args)));
        return {
          content: [{ type: "text", text: JSON.stringify(data) }],
          structuredContent: data,
        };
      } catch (err) {
        return toolError(ctx, tool.name, err);
      }
    });
  }
  return server;
}
