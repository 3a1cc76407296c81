/**
 * `buildMcpServer(ctx, caller)`: a fresh MCP `Server` for one request (stateless; the SDK
 * forbids reusing a server or transport across requests since 1.26) that answers `tools/list`
 * and `tools/call` from the tool registry. The low-level `Server` is used rather than
 * `McpServer` so that the protocol rules are statusd's own: the capability says
 * `listChanged: false` (nothing is ever pushed), an unknown tool or cursor is a JSON-RPC
 * `-32602` error, and each call checks the tool's own scopes, so a caller missing one gets a
 * tool error naming it rather than a tool that silently disappears from `tools/list`.
 * @module
 */
import { z } from "zod";
import { type AppContext, authorize } from "../../app/mod.ts";
import { InvalidRequest } from "../../domain/mod.ts";
import {
  CallToolRequestSchema,
  type CallToolResult,
  ErrorCode,
  ListToolsRequestSchema,
  Server,
  type Tool,
} from "./sdk.ts";
import { type McpTool, READ_ONLY, type ToolCaller } from "./tool.ts";
import { toolError } from "./tool_error.ts";
import { TOOLS } from "./tools/mod.ts";

/**
 * The MCP revision statusd names as its own (SPEC §4, §9): the answer to an `initialize` that
 * asks for any revision statusd does not support.
 */
export const PROTOCOL_VERSION = "2025-06-18";

/**
 * Revisions whose rules statusd follows, newest first: an `initialize` asking for one of them
 * gets it back unchanged, and a later request's `MCP-Protocol-Version` must name one of them.
 * 2025-03-26 and 2024-11-05 are not here: they require JSON-RPC batches (refused, §1.2 of
 * PROTOCOLS.md) and, for 2024-11-05, the older HTTP+SSE transport.
 */
export const SUPPORTED_PROTOCOL_VERSIONS: readonly string[] = ["2025-11-25", PROTOCOL_VERSION];

/** The revision an `initialize` asking for `requested` is answered with. */
export function negotiatedVersion(requested: unknown): string {
  return typeof requested === "string" && SUPPORTED_PROTOCOL_VERSIONS.includes(requested)
    ? requested
    : PROTOCOL_VERSION;
}

/** `serverInfo` of `initialize` and of `/.well-known/mcp.json`. */
export const SERVER_INFO = { name: "statusd", title: "statusd", version: "1.0.0" } as const;

/** The server's capabilities: tools only, and a tool list that never changes. */
export const CAPABILITIES = { tools: { listChanged: false } } as const;

/** What the server tells the model about itself (InitializeResult.instructions). */
export const INSTRUCTIONS =
  "Read-only tools over statusd's normalised status data for cloud and SaaS vendors. Start " +
  "with list_services (or check_services for a pass/fail gate), then get_service_status, " +
  "get_component_status, list_incidents, get_service_history or get_uptime_report by slug.";

/** A JSON Schema (draft-07, declared in `$schema`) of a tool's input or output. */
function jsonSchema(schema: z.ZodObject, io: "input" | "output"): Tool["inputSchema"] {
  return z.toJSONSchema(schema, { target: "draft-7", io }) as Tool["inputSchema"];
}

/** `tools/list` entries, computed once from the registry. */
const TOOL_LIST: Tool[] = TOOLS.map((tool) => ({
  name: tool.name,
  title: tool.title,
  description: tool.description,
  inputSchema: jsonSchema(tool.input, "input"),
  outputSchema: jsonSchema(tool.output, "output") as Tool["outputSchema"],
  annotations: { title: tool.title, ...(tool.hints ?? READ_ONLY) },
}));

const BY_NAME = new Map(TOOLS.map((t) => [t.name, t]));

/**
 * A JSON-RPC error a handler throws: the SDK answers `{code, message}` with this code (its own
 * `McpError` would prefix the message with "MCP error -32602: ").
 */
export class RpcError extends Error {
  constructor(readonly code: number, message: string) {
    super(message);
  }
}

/**
 * Runs one tool for `caller`: a result with `structuredContent`, or a tool error. The tool's
 * scopes are checked by app's `authorize` (the one policy function), then by the verbs it runs.
 */
async function callTool(
  ctx: AppContext,
  caller: ToolCaller,
  tool: McpTool,
  args: unknown,
): Promise<CallToolResult> {
  try {
    authorize(caller, { credential: "key", scopes: tool.scopes });
    const input = tool.input.safeParse(args ?? {});
    if (!input.success) {
      throw new InvalidRequest(
        input.error.issues.map((i) => ({
          parameter: i.path.map(String).join(".") || "arguments",
          message: i.message,
        })),
        undefined,
      );
    }
    const data = tool.output.parse(await tool.run(ctx, caller, input.data));
    return { content: [{ type: "text", text: JSON.stringify(data) }], structuredContent: data };
  } catch (err) {
    return toolError(ctx, tool.name, err);
  }
}

/** A new server exposing every tool to `caller`. */
export function buildMcpServer(ctx: AppContext, caller: ToolCaller): Server {
  const server = new Server(SERVER_INFO, {
    capabilities: CAPABILITIES,
    instructions: INSTRUCTIONS,
  });
  server.setRequestHandler(ListToolsRequestSchema, (request) => {
    // One page holds every tool, so no cursor was ever handed out.
    if (request.params?.cursor !== undefined) {
      throw new RpcError(ErrorCode.InvalidParams, "Unknown cursor: tools/list has one page");
    }
    return { tools: TOOL_LIST };
  });
  server.setRequestHandler(CallToolRequestSchema, (request) => {
    const tool = BY_NAME.get(request.params.name);
    if (tool === undefined) {
      throw new RpcError(
        ErrorCode.InvalidParams,
        `Unknown tool "${request.params.name}"; tools/list names the ${TOOLS.length} tools`,
      );
    }
    return callTool(ctx, caller, tool, request.params.arguments);
  });
  return server;
}
