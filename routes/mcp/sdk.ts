/**
 * The one place the server imports the MCP SDK. The SDK's `"./*"` export maps types to files
 * that do not exist under Deno, so every import here carries a `@ts-types` pragma; without it
 * the imports silently type as `any` (TOOLCHAIN §6.1).
 * @module
 */
// @ts-types="@modelcontextprotocol/sdk/server/index"
export { Server } from "@modelcontextprotocol/sdk/server/index.js";
// @ts-types="@modelcontextprotocol/sdk/server/webStandardStreamableHttp"
export { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
// @ts-types="@modelcontextprotocol/sdk/types"
export {
  CallToolRequestSchema,
  ErrorCode,
  InitializeRequestSchema,
  ListToolsRequestSchema,
  PingRequestSchema,
} from "@modelcontextprotocol/sdk/types.js";
// @ts-types="@modelcontextprotocol/sdk/types"
export type { CallToolResult, Tool } from "@modelcontextprotocol/sdk/types.js";
