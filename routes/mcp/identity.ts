/**
 * Who the MCP server says it is: protocol revisions, server info, capabilities, instructions.
 * Free of the SDK, so the discovery documents can name them without loading it (the
 * SDK is loaded with the first request to `/api/mcp`).
 * @module
 */

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
  "Tools over statusd's normalised status data for cloud and SaaS vendors, and the account's " +
  "own monitors and alerts. To read, start with list_services (or check_services for a " +
  "pass/fail gate), then get_service_status, get_component_status, list_incidents, " +
  "get_service_history or get_uptime_report by slug; identify_vendor tells whose outage a " +
  "failed call's host, URL or error line is; list_monitors, get_board_status and " +
  "list_alert_events read the account's own. Four tools change things, and only for a " +
  "credential that holds their scope: add_monitor and remove_monitor (monitors:write) change " +
  "the account's monitors, add_vendor (monitors:write) adds a status page statusd lacks, and " +
  "acknowledge_alert (alerts:write) stops an alert's escalation.";
