/**
 * `/.well-known/mcp.json`: the MCP server manifest (PROTOCOLS §5.2), a superset of the
 * SEP-2127 Server Card core fields and the SEP-1649 `mcp.json` fields. Generated from the same
 * constants and tool registry that feed `initialize` and `tools/list`, so it cannot drift.
 * @module
 */
import { mcpResource, OAUTH_SCOPES } from "../app/mod.ts";
import type { AppContext } from "../app/mod.ts";
import {
  CAPABILITIES,
  INSTRUCTIONS,
  PROTOCOL_VERSION,
  SERVER_INFO,
  SUPPORTED_PROTOCOL_VERSIONS,
} from "./mcp/identity.ts";
import { READ_ONLY } from "./mcp/tool.ts";
import { TOOLS } from "./mcp/tools/mod.ts";
import type { Register } from "./register.ts";
import { PRM_PATH } from "./oauth/metadata.ts";

/** The manifest document for this server. */
export function mcpManifest(ctx: AppContext) {
  const base = ctx.settings.publicUrl;
  const endpoint = mcpResource(ctx);
  const description = "Live status, incidents and uptime of cloud and SaaS vendors";
  return {
    name: "io.statusd/statusd",
    title: SERVER_INFO.title,
    version: SERVER_INFO.version,
    description,
    websiteUrl: `${base}/`,
    remotes: [{
      type: "streamable-http",
      url: endpoint,
      supportedProtocolVersions: [...SUPPORTED_PROTOCOL_VERSIONS],
      headers: [{
        name: "X-API-Key",
        description: "statusd API key with the mcp:invoke scope (alternative to OAuth)",
        isRequired: false,
        isSecret: true,
      }],
    }],
    protocolVersion: PROTOCOL_VERSION,
    serverInfo: { ...SERVER_INFO },
    transport: { type: "streamable-http", endpoint },
    capabilities: CAPABILITIES,
    authentication: {
      required: true,
      schemes: ["oauth2", "bearer"],
      protectedResourceMetadata: `${base}${PRM_PATH}`,
      apiKeyHeaders: ["X-API-Key", "Authorization"],
      scopes: [...OAUTH_SCOPES],
      requiredPlan: "PRO",
    },
    documentationUrl: `${base}/llms.txt`,
    instructions: INSTRUCTIONS,
    tools: TOOLS.map((t) => ({
      name: t.name,
      title: t.title,
      description: t.description,
      requiredScopes: ["mcp:invoke", ...t.scopes],
      annotations: { title: t.title, ...(t.hints ?? READ_ONLY) },
    })),
    prompts: [],
    resources: [],
  };
}

/** Mounts `/.well-known/mcp.json`. */
export const registerMcpDiscovery: Register = (api) => {
  api.get("/.well-known/mcp.json", (c) =>
    c.json(mcpManifest(c.get("app")), 200, {
      "Access-Control-Allow-Origin": "*",
      "Cache-Control": "public, max-age=3600",
    }));
};
