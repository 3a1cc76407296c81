/**
 * Every MCP tool, in the order `tools/list` and `/.well-known/mcp.json` show them.
 * @module
 */
import type { McpTool } from "../tool.ts";
import { checkServicesTool } from "./check_services.ts";
import { getComponentStatusTool } from "./get_component_status.ts";
import { getServiceHistoryTool } from "./get_service_history.ts";
import { getServiceStatusTool } from "./get_service_status.ts";
import { getUptimeReportTool } from "./get_uptime_report.ts";
import { listIncidentsTool } from "./list_incidents.ts";
import { listServicesTool } from "./list_services.ts";
import {
  addMonitorTool,
  getBoardStatusTool,
  listMonitorsTool,
  removeMonitorTool,
} from "./monitors.ts";

import { acknowledgeAlertTool, listAlertEventsTool } from "./alerts.ts";
import { addVendorTool, identifyVendorTool } from "./vendors.ts";

/** The tool registry. */
export const TOOLS: readonly McpTool[] = [
  listServicesTool,
  getServiceStatusTool,
  listIncidentsTool,
  getComponentStatusTool,
  getUptimeReportTool,
  getServiceHistoryTool,
  checkServicesTool,
  identifyVendorTool,
  listMonitorsTool,
  addMonitorTool,
  addVendorTool,
  removeMonitorTool,
  getBoardStatusTool,
  listAlertEventsTool,
  acknowledgeAlertTool,
];
