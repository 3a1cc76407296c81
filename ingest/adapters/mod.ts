/**
 * The registry of platform adapters: the only list to edit when adding a platform.
 * @module
 */
import type { Platform } from "../../domain/mod.ts";
import type { Adapter } from "./adapter.ts";
import { awsAdapter } from "./aws.ts";
import { azureAdapter } from "./azure.ts";
import { feedAdapter } from "./feed.ts";
import { googleCloudAdapter } from "./google_cloud.ts";
import { herokuAdapter } from "./heroku.ts";
import { salesforceAdapter } from "./salesforce.ts";
import { slackAdapter } from "./slack.ts";

export type { Adapter, ParseContext } from "./adapter.ts";
export { PayloadError } from "./adapter.ts";

/** Adapters by platform; platforms without one (html, unknown) are not polled for data. */
export const ADAPTERS: Partial<Record<Platform, Adapter>> = {
  rss: feedAdapter,
  "google-cloud": googleCloudAdapter,
  aws: awsAdapter,
  azure: azureAdapter,
  slack: slackAdapter,
  salesforce: salesforceAdapter,
  heroku: herokuAdapter,
};
