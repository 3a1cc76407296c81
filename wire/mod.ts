/**
 * What statusd's data looks like outside: one zod schema per shape (a service, its reading, an
 * incident, time to resolve, statusd's own eyes, history and uptime, a monitor, a group and a
 * board, an alert event), with its field descriptions, and one mapper from the record the app
 * answers. REST (which names them in its OpenAPI document), MCP (whose tools show a choice of
 * their fields) and the `status` CLI (which parses answers with them) all render from here, so a
 * field is added once. Pure: zod and the domain only.
 * @module
 */
export { pageJson, pageSchema, StatusLevelSchema, Timestamp } from "./basics.ts";
export {
  ReadingErrorKindSchema,
  readingJson,
  ReadingSchema,
  ReadingStateSchema,
} from "./reading.ts";
export { incidentJson, IncidentSchema, IncidentUpdateSchema } from "./incident.ts";
export { ResolutionFigureSchema, timeToResolveJson, TimeToResolveSchema } from "./resolution.ts";
export { EarlyWarningSchema, TrackRecordSchema } from "./own_eyes.ts";
export {
  componentJson,
  ComponentSchema,
  serviceDetailJson,
  ServiceDetailSchema,
  serviceJson,
  ServiceSchema,
} from "./service.ts";
export {
  HistoryEntrySchema,
  historyJson,
  HistorySchema,
  uptimeJson,
  UptimeSchema,
} from "./history.ts";
export { MonitorBriefSchema, monitorJson, MonitorSchema } from "./monitor.ts";
export { boardJson, BoardSchema, DaySchema, EntrySchema, groupJson, GroupSchema } from "./board.ts";
export { AttemptSchema, eventJson, EventSchema } from "./alert_event.ts";
export { lookupJson, LookupMatchSchema, LookupSchema } from "./lookup.ts";
export {
  addedVendorJson,
  addedVendorRowJson,
  AddedVendorRowSchema,
  AddedVendorSchema,
} from "./added_vendor.ts";
