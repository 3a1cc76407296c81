/**
 * The Bearer challenge `/api/mcp` answers an unauthenticated or under-scoped request with: what
 * starts an MCP client's OAuth flow.
 * @module
 */
import { PRM_PATH } from "../oauth/metadata.ts";

/** The `WWW-Authenticate` value for /api/mcp (RFC 6750 §3 + RFC 9728 §5.1). */
export function mcpChallenge(
  publicUrl: string,
  error?: { code: "invalid_token" | "insufficient_scope"; description?: string; scope?: string },
): string {
  const parts: string[] = [];
  if (error) {
    parts.push(`error="${error.code}"`);
    if (error.description) {
      parts.push(`error_description="${error.description.replace(/"/g, "'")}"`);
    }
    if (error.scope) parts.push(`scope="${error.scope}"`);
  }
  parts.push(`resource_metadata="${publicUrl}${PRM_PATH}"`);
  return `Bearer ${parts.join(", ")}`;
}
