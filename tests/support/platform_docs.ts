/**
 * What the vendor simulator serves for each platform statusd reads: a calm document and a
 * document in trouble (recorded payloads from tests/fixtures; where no recording shows trouble
 * or calm, the recorded one with the smallest edit, marked EDITED below), the platform's pulse
 * document if it has one, and whether its servers honour validators (ETag/Last-Modified). Also
 * the adapters to read simulated vendors with: platforms whose adapter reads one fixed
 * vendor-wide URL (or finds its endpoint in the page) are pointed at `<page>/data` instead.
 * @module
 */
import type { Platform } from "../../domain/mod.ts";
import type { Adapter } from "../../ingest/adapters/adapter.ts";
import { ADAPTERS } from "../../ingest/adapters/mod.ts";

/** One platform as the simulator serves it. */
export interface SimulatedPlatform {
  readonly contentType: string;
  /** The full document, all clear. */
  readonly calm: string;
  /** The full document while the vendor is in trouble (its service level is not OPERATIONAL). */
  readonly outage: string;
  /** The pulse document (adapter `pulse`), served at the path that ends with `path`. */
  readonly pulse?: { readonly path: string; readonly calm: string; readonly outage: string };
  /**
   * The platform's servers send ETag/Last-Modified and answer conditional requests 304. Only
   * what is recorded is modelled as missing: incident.io sends neither (FORMATS.md §2).
   */
  readonly validators: boolean;
}

const read = (path: string) =>
  Deno.readTextFileSync(new URL(`../fixtures/${path}`, import.meta.url));
// deno-lint-ignore no-explicit-any
const edit = (path: string, change: (doc: any) => unknown) => {
  const doc = JSON.parse(read(path));
  return JSON.stringify(change(doc) ?? doc);
};
/** Statuspage's status.json as the platform derives it from the same page state. */
const statusOf = (summary: string) => {
  const { page, status } = JSON.parse(summary);
  return JSON.stringify({ page, status });
};

const JSON_TYPE = "application/json";
const spCalm = read("statuspage/claude-summary-all-operational-2026.json");
const spOutage = read("statuspage/github-summary-partial-outage-investigating.json");

/** Every platform with an adapter, as simulated vendors serve it. */
export const SIMULATED_PLATFORMS: Readonly<Record<SimulatedPlatformName, SimulatedPlatform>> = {
  statuspage: {
    contentType: JSON_TYPE,
    calm: spCalm,
    outage: spOutage,
    pulse: { path: "/api/v2/status.json", calm: statusOf(spCalm), outage: statusOf(spOutage) },
    validators: true,
  },
  incidentio: {
    contentType: JSON_TYPE,
    calm: read("incidentio/openai-compat-summary-operational.json"),
    // The adapter reads the widget shape too; no compat summary in trouble is recorded.
    outage: read("incidentio/widget-api-preview-incident-and-maintenances-DOCSAMPLE.json"),
    pulse: {
      path: "/api/v1/summary",
      calm: read("incidentio/neon-widget-summary-operational.json"),
      outage: read("incidentio/widget-api-preview-incident-and-maintenances-DOCSAMPLE.json"),
    },
    validators: false,
  },
  instatus: {
    contentType: JSON_TYPE,
    calm: read("instatus/wistia-summary-up-no-active-keys.json"),
    outage: read("instatus/instatus-docs-summary-hasissues.json"),
    validators: true,
  },
  statusio: {
    contentType: JSON_TYPE,
    calm: read("statusio/nintex-status-operational.json"),
    outage: read("statusio/nintex-status-service-disruption-no-incidents-key.json"),
    validators: true,
  },
  betterstack: {
    contentType: JSON_TYPE,
    calm: read("betterstack/together-ai-index-operational-maintenance-report-resolved.json"),
    // EDITED: the page's aggregate state set to downtime (no recording shows trouble).
    outage: edit(
      "betterstack/together-ai-index-operational-maintenance-report-resolved.json",
      (d) => void (d.data.attributes.aggregate_state = "downtime"),
    ),
    validators: true,
  },
  cachet: {
    contentType: JSON_TYPE,
    calm: read("cachet/cachet-v2-components-list-operational.json"),
    outage: read("cachet/cachet-v0-docs-components-mixed.json"),
    validators: true,
  },
  rss: {
    contentType: "application/rss+xml",
    calm: read("rss/quay-history-rss-maintenance-local-tz.rss"),
    outage: read("rss/lambstatus-demo-history-rss-maintenance-monitoring-resolved.rss"),
    validators: true,
  },
  "google-cloud": {
    contentType: JSON_TYPE,
    calm: read("gcp/google-cloud-incidents-resolved-trimmed.json"),
    // EDITED: the recorded outage (SERVICE_OUTAGE, high) as it stood before it ended: no end,
    // no AVAILABLE update.
    outage: edit("gcp/google-cloud-incidents-resolved-trimmed.json", (d) => {
      delete d[2].end;
      // deno-lint-ignore no-explicit-any
      d[2].updates = d[2].updates.filter((u: any) => u.status !== "AVAILABLE");
      d[2].most_recent_update = d[2].updates[0];
    }),
    validators: true,
  },
  aws: {
    contentType: "application/rss+xml",
    calm: read("aws/aws-all-rss-empty.xml"),
    outage: read("aws/aws-health-currentevents-one-open-event-PARTIAL.json"),
    validators: true,
  },
  azure: {
    contentType: "application/rss+xml",
    calm: read("azure/azure-status-rss-empty-2018.xml"),
    outage: read("azure/azure-status-rss-2022-header-real-items-from-test.xml"),
    validators: true,
  },
  slack: {
    contentType: JSON_TYPE,
    calm: read("slack/slack-live-current-ok-2026.json"),
    outage: read("slack/slack-docs-current-active-incident.json"),
    validators: true,
  },
  salesforce: {
    contentType: JSON_TYPE,
    // EDITED: the recorded instance with status OK and no incidents or maintenances.
    calm: edit("salesforce/trust-instance-status-minor-incident-and-maintenance.json", (d) => {
      d.status = "OK";
      d.Incidents = [];
      d.Maintenances = [];
    }),
    outage: read("salesforce/trust-instance-status-minor-incident-and-maintenance.json"),
    validators: true,
  },
  heroku: {
    contentType: JSON_TYPE,
    calm: read("heroku/heroku-v3-docs-current-status-green.json"),
    // EDITED: Production red (the documented value for an outage).
    outage: edit("heroku/heroku-v3-docs-current-status-green.json", (d) => {
      d.status.Production = "red";
    }),
    validators: true,
  },
};

/** Platforms statusd has an adapter for (every platform but `html` and `unknown`). */
export type SimulatedPlatformName = Exclude<Platform, "html" | "unknown">;

/** The names of {@link SIMULATED_PLATFORMS}, in catalog order. */
export const SIMULATED_PLATFORM_NAMES = Object.keys(SIMULATED_PLATFORMS) as SimulatedPlatformName[];

/** True for a platform the simulator serves. */
export function isSimulatedPlatform(name: string): name is SimulatedPlatformName {
  return Object.hasOwn(SIMULATED_PLATFORMS, name);
}

/** Platforms whose adapter reads a fixed vendor-wide URL, or finds its endpoint in the page. */
const FIXED: readonly SimulatedPlatformName[] = [
  "statusio",
  "cachet",
  "google-cloud",
  "aws",
  "azure",
  "slack",
  "salesforce",
  "heroku",
];

/**
 * The adapters to read simulated vendors with: the real ones, except that those reading a
 * fixed URL (or discovering their endpoint) read `<page>/data` on the simulator instead.
 */
export function simulatedAdapters(): Partial<Record<Platform, Adapter>> {
  const out: Partial<Record<Platform, Adapter>> = { ...ADAPTERS };
  for (const name of FIXED) {
    const real = ADAPTERS[name]!;
    out[name] = {
      platform: real.platform,
      parse: real.parse,
      endpoint: (vendor) => new URL(`${vendor.statusPageUrl.replace(/\/$/, "")}/data`),
      ...(real.pulse ? { pulse: real.pulse } : {}),
    };
  }
  return out;
}
