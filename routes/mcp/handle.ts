/**
 * A POST to `/api/mcp`, after CORS and the Origin check (`route.ts`): credentials, then the
 * transport-level checks, the JSON-RPC gate (`jsonrpc.ts`), and a new SDK server and transport
 * for this one request. Loaded with the first POST, and the MCP SDK with it.
 * @module
 */
import type { Context } from "hono";
import { mcpCaller } from "../../app/mod.ts";
import { InsufficientScope, Unauthorized } from "../../domain/mod.ts";
import type { Env } from "../env.ts";
import { credentialOf } from "../middleware/principal.ts";
import { admit } from "./jsonrpc.ts";
import { mcpChallenge } from "./challenge.ts";
import { WebStandardStreamableHTTPServerTransport } from "./sdk.ts";
import { buildMcpServer } from "./server.ts";
import type { ToolCaller } from "./tool.ts";

/**
 * The caller (app `mcpCaller` decides who may use MCP), or its refusal with the Bearer
 * challenge that starts an SDK client's OAuth flow. A plan refusal carries no challenge: it is
 * not an OAuth scope matter, and SDK clients would loop into re-consent.
 */
async function callerOf(c: Context<Env>): Promise<ToolCaller> {
  const ctx = c.get("app");
  const credential = credentialOf(c.req.raw);
  try {
    return await mcpCaller(ctx, credential);
  } catch (err) {
    const publicUrl = ctx.settings.publicUrl;
    if (err instanceof Unauthorized) {
      c.header(
        "WWW-Authenticate",
        credential === null || credential === ""
          ? mcpChallenge(publicUrl)
          : mcpChallenge(publicUrl, { code: "invalid_token", description: err.message }),
      );
    } else if (err instanceof InsufficientScope) {
      c.header(
        "WWW-Authenticate",
        mcpChallenge(publicUrl, { code: "insufficient_scope", scope: err.requiredScope }),
      );
    }
    throw err;
  }
}

/**
 * Lenient `Accept` (PROTOCOLS §1.2): JSON when JSON, `application/*`, `*` or nothing is
 * acceptable; null when nothing usable is (the transport then answers 406).
 */
function acceptFor(accept: string | undefined): string | null {
  const types = (accept ?? "*/*").split(",").map((t) => t.split(";")[0]!.trim().toLowerCase());
  const usable = types.some((t) =>
    t === "" || t === "*/*" || t === "application/*" || t === "application/json" ||
    t === "text/event-stream"
  );
  return usable ? "application/json, text/event-stream" : null;
}

/** True for `application/json`, parameters (e.g. `charset=utf-8`) ignored. */
function isJsonMediaType(contentType: string | null): boolean {
  return (contentType ?? "").split(";")[0]!.trim().toLowerCase() === "application/json";
}

/** The body of an HTTP-level refusal (the SDK transport's shape: code -32000, no id). */
function transportError(message: string) {
  return { jsonrpc: "2.0", id: null, error: { code: -32000, message } } as const;
}

/** Answers one POST to `/api/mcp`. */
export async function handlePost(c: Context<Env>): Promise<Response> {
  const ctx = c.get("app");
  const caller = await callerOf(c);
  c.set("principal", caller);
  const raw = c.req.raw;
  // Transport-level refusals come before the body is looked at, as the SDK orders them.
  const accept = acceptFor(raw.headers.get("accept") ?? undefined);
  if (accept === null) {
    return c.json(transportError("Not Acceptable: accept application/json"), 406);
  }
  if (!isJsonMediaType(raw.headers.get("content-type"))) {
    return c.json(transportError("Unsupported Media Type: send application/json"), 415);
  }
  const text = await c.req.text();
  const admission = admit(text, raw.headers.get("mcp-protocol-version"));
  if (admission.kind === "reply") return c.json(admission.body, admission.status);
  const headers = new Headers(raw.headers);
  headers.set("accept", accept);
  const request = new Request(raw.url, { method: "POST", headers, body: text });

  const server = buildMcpServer(ctx, caller);
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: true,
  });
  try {
    await server.connect(transport);
    return await transport.handleRequest(request, { parsedBody: admission.message });
  } finally {
    await server.close();
  }
}
