/**
 * The gate in front of the SDK transport: decides what a POSTed body is under JSON-RPC 2.0 and
 * MCP's base protocol before any handler sees it, and answers what the SDK would get wrong:
 *
 * - not JSON → `-32700`; a batch (JSON array) → `-32600` (batches are gone since 2025-06-18);
 * - JSON that is no JSON-RPC message (`{"id": null}`, a request whose `id` is null or not a
 *   string or integer, `jsonrpc` other than "2.0") → `-32600` (the SDK says "parse error");
 * - a request to a method statusd serves whose `params` do not fit → `-32602` naming the field
 *   (the SDK answers `-32603` with a zod dump);
 * - a later request naming an `MCP-Protocol-Version` statusd does not speak → HTTP 400;
 * - an `initialize` asking for a revision statusd does not speak is counter-offered
 *   statusd's own (the SDK would agree to its newest).
 * @module
 */
import { z } from "zod";
import {
  CallToolRequestSchema,
  ErrorCode,
  InitializeRequestSchema,
  ListToolsRequestSchema,
  PingRequestSchema,
} from "./sdk.ts";
import { negotiatedVersion, SUPPORTED_PROTOCOL_VERSIONS } from "./identity.ts";

/** A JSON-RPC error body (`id` null when it could not be read). */
export interface RpcErrorBody {
  readonly jsonrpc: "2.0";
  readonly id: string | number | null;
  readonly error: { readonly code: number; readonly message: string };
}

/** What to do with a POSTed body. */
export type Admission =
  | { readonly kind: "forward"; readonly message: Record<string, unknown> }
  | { readonly kind: "reply"; readonly status: 200 | 400; readonly body: RpcErrorBody };

/** A request's params schema, for the methods statusd serves (others get -32601 from the SDK). */
interface ParamsSchema {
  safeParse(value: unknown): {
    success: boolean;
    error?: { issues: { path: PropertyKey[]; message: string }[] };
  };
}

const SERVED: Record<string, ParamsSchema> = {
  initialize: InitializeRequestSchema,
  ping: PingRequestSchema,
  "tools/list": ListToolsRequestSchema,
  "tools/call": CallToolRequestSchema,
};

/** The code the SDK transport uses for HTTP-level refusals (PROTOCOLS §1.10). */
const TRANSPORT_ERROR = -32000;

const Id = z.union([z.string(), z.number().int().refine(Number.isSafeInteger)]);

function reply(
  status: 200 | 400,
  id: string | number | null,
  code: number,
  message: string,
): Admission {
  return { kind: "reply", status, body: { jsonrpc: "2.0", id, error: { code, message } } };
}

function invalid(message: string): Admission {
  return reply(400, null, ErrorCode.InvalidRequest, `Invalid Request: ${message}`);
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** `params.name: Invalid input: expected string, received number; …` */
function describeIssues(issues: { path: PropertyKey[]; message: string }[]): string {
  return issues.slice(0, 5).map((i) => `${i.path.map(String).join(".") || "params"}: ${i.message}`)
    .join("; ");
}

/** A response (to a server-initiated request) must carry an id and one of result or error. */
function admitResponse(body: Record<string, unknown>): Admission {
  if (!Id.safeParse(body.id).success) {
    return invalid("a message needs a method, or an id (string or integer) and a result or error");
  }
  const hasResult = "result" in body;
  const hasError = "error" in body;
  if (hasResult === hasError) return invalid("a response carries exactly one of result and error");
  if (hasResult && !isObject(body.result)) return invalid("result must be an object");
  if (
    hasError &&
    !(isObject(body.error) && Number.isInteger(body.error.code) &&
      typeof body.error.message === "string")
  ) {
    return invalid("error must be {code: integer, message: string}");
  }
  return { kind: "forward", message: body };
}

/**
 * Classifies `text`, the POSTed body, given the request's `MCP-Protocol-Version` header
 * (null when absent; absent means "statusd's own revision").
 */
export function admit(text: string, protocolHeader: string | null): Admission {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return reply(400, null, ErrorCode.ParseError, "Parse error: the body is not JSON");
  }
  if (Array.isArray(body)) {
    return invalid("JSON-RPC batches are not supported (removed in MCP 2025-06-18)");
  }
  if (!isObject(body)) return invalid("the body must be a JSON-RPC object");
  if (body.jsonrpc !== "2.0") return invalid('jsonrpc must be "2.0"');
  const isInitialize = body.method === "initialize" && "id" in body;
  if (
    !isInitialize && protocolHeader !== null &&
    !SUPPORTED_PROTOCOL_VERSIONS.includes(protocolHeader)
  ) {
    return reply(
      400,
      null,
      TRANSPORT_ERROR,
      `Bad Request: unsupported MCP-Protocol-Version ${JSON.stringify(protocolHeader)} ` +
        `(supported: ${SUPPORTED_PROTOCOL_VERSIONS.join(", ")})`,
    );
  }
  if (!("method" in body)) return admitResponse(body);
  if (typeof body.method !== "string") return invalid("method must be a string");
  const isRequest = "id" in body;
  if (isRequest && !Id.safeParse(body.id).success) {
    return invalid("a request id must be a string or an integer, never null");
  }
  const id = isRequest ? body.id as string | number : null;
  if ("params" in body && !isObject(body.params)) {
    return reply(
      isRequest ? 200 : 400,
      id,
      ErrorCode.InvalidParams,
      "Invalid params: must be an object",
    );
  }
  const schema = isRequest ? SERVED[body.method] : undefined;
  if (schema) {
    const checked = schema.safeParse(body);
    if (!checked.success) {
      return reply(
        200,
        id,
        ErrorCode.InvalidParams,
        `Invalid params for ${body.method}: ${describeIssues(checked.error?.issues ?? [])}`,
      );
    }
  }
  if (isInitialize) {
    const params = body.params as Record<string, unknown>;
    const version = negotiatedVersion(params.protocolVersion);
    if (version !== params.protocolVersion) {
      return {
        kind: "forward",
        message: { ...body, params: { ...params, protocolVersion: version } },
      };
    }
  }
  return { kind: "forward", message: body };
}
