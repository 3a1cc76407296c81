/**
 * `buildMcpServer(ctx, caller)`: a fresh MCP `Server` for one request (stateless; the SDK
 * forbids reusing a server or transport across requests since 1.26) that answers `tools/list`
 * and `tools/call` from the tool registry. The low-level `Server` is used rather than
 * `McpServer` so that the protocol rules are statusd's own: the capability says
 * `listChanged: false` (nothing is ever pushed), an unknown tool or cursor is a JSON-RPC
 * `-32602` error, `tools/list` shows a caller only the tools its key or token can call (an OAuth
 * client that asked for fewer scopes sees fewer tools), and each call checks the tool's scopes
 * again (a tool error naming the missing one).
 * @module
 */
import { z } from "zod";
import { type AppContext, authorize } from "../../app/mod.ts";
import { holdsScope, InvalidRequest } from "../../domain/mod.ts";
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
import { CAPABILITIES, INSTRUCTIONS, SERVER_INFO } from "./identity.ts";

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
    return {
      tools: TOOL_LIST.filter((_, i) => TOOLS[i]!.scopes.every((s) => holdsScope(caller, s))),
    };
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
