/**
 * The one mapping from typed errors to MCP tool results (ARCHITECTURE §2.6): anything a model
 * could fix or report (unknown slug with close matches, bad range, missing scope) becomes an
 * `isError` result naming the problem, never a protocol error or an HTTP 5xx. Error results
 * carry no `structuredContent`, so clients never validate them against the output schema.
 * @module
 */
import type { AppContext } from "../../app/mod.ts";
import { AppError, InsufficientScope, NotFound } from "../../domain/mod.ts";
import type { CallToolResult } from "./sdk.ts";

/** A tool error result for `err`; unexpected errors are logged and shown only by request id. */
export function toolError(ctx: AppContext, tool: string, err: unknown): CallToolResult {
  let text: string;
  if (err instanceof InsufficientScope) {
    text = `${err.message}. Use an API key or OAuth grant that holds "${err.requiredScope}".`;
  } else if (err instanceof NotFound && err.suggestions.length === 0 && err.kind === "service") {
    text = `${err.message}. Call list_services to find the right slug.`;
  } else if (err instanceof AppError) {
    text = err.message;
  } else {
    const requestId = crypto.randomUUID();
    ctx.log.error("mcp tool failed", {
      tool,
      requestId,
      err: String(err),
      stack: err instanceof Error ? err.stack : undefined,
    });
    text = `Internal error (request id ${requestId})`;
  }
  return { isError: true, content: [{ type: "text", text }] };
}
