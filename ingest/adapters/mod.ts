/**
 * The registry of platform adapters: the only list to edit when adding a platform.
 * @module
 */
import type { Platform } from "../../domain/mod.ts";
import type { Adapter } from "./adapter.ts";
import { awsAdapter } from "./aws.ts";
import { azureAdapter } from "./azure.ts";
import { betterstack } from "./betterstack.ts";
import { cachet } from "./cachet.ts";
import { feedAdapter } from "./feed.ts";
import { googleCloudAdapter } from "./google_cloud.ts";
import { herokuAdapter } from "./heroku.ts";
import { incidentio } from "./incidentio.ts";
import { instatus } from "./instatus.ts";
import { salesforceAdapter } from "./salesforce.ts";
import { slackAdapter } from "./slack.ts";
import { statusio } from "./statusio.ts";
import { statuspage } from "./statuspage.ts";

export type { Adapter, ParseContext } from "./adapter.ts";
export { PayloadError, UndecodableError } from "./adapter.ts";

/** Adapters by platform; platforms without one (html, unknown) are not polled for data. */
export const ADAPTERS: Partial<Record<Platform, Adapter>> = {
  statuspage,
  incidentio,
  instatus,
  statusio,
  betterstack,
  cachet,
  rss: feedAdapter,
  "google-cloud": googleCloudAdapter,
  aws: awsAdapter,
  azure: azureAdapter,
  slack: slackAdapter,
  salesforce: salesforceAdapter,
  heroku: herokuAdapter,
};
