/**
 * A typed client of the public statusd REST API. Every answer is parsed with zod, so the
 * commands only see the fields they declare. Network errors are retried once; a timeout, an
 * error answer or an unexpected body becomes a one-line {@link CliError}.
 * @module
 */
import { z } from "zod";
import * as wire from "../../wire/mod.ts";
import { ApiFailure, CliError, exitCodeOf, UnknownBoard, UnknownVendor } from "./exit.ts";

// The shapes are the server's own (`wire/`). Fields a server older than this client leaves out
// are optional here, so `status` still reads it.

/** Every status level, ranked ones first. */
export const LevelSchema = wire.StatusLevelSchema;

/** Reading health: can statusd read the vendor; if not, why and since when. */
export const ReadingSchema = wire.ReadingSchema;
/** Reading health of one service. */
export type Reading = z.infer<typeof ReadingSchema>;

/** A service as `/api/services` lists it (DESIGN §4). */
export const ServiceSchema = wire.ServiceSchema.partial({
  uptimeObservedSeconds: true,
  reading: true,
});
/** A service as listed. */
export type Service = z.infer<typeof ServiceSchema>;

/** One component of a service. */
export const ComponentSchema = wire.ComponentSchema;

/** An incident or maintenance with its timeline. */
export const IncidentSchema = wire.IncidentSchema.partial({
  scheduledStartAt: true,
  scheduledEndAt: true,
  revisions: true,
  removedAt: true,
  overrun: true,
});
/** An incident as the API returns it. */
export type Incident = z.infer<typeof IncidentSchema>;

/** Typical time to resolve: p50/p90 minutes over `windowDays`, overall and per impact. */
export const TimeToResolveSchema = wire.TimeToResolveSchema;
/** Typical time to resolve of one service. */
export type TimeToResolve = z.infer<typeof TimeToResolveSchema>;

/** statusd's own early warning of a service (`earlyWarning`). */
export const EarlyWarningSchema = wire.EarlyWarningSchema.partial({
  vendorClaimedStart: true,
  visibility: true,
});

/** How quickly the vendor admits trouble statusd saw itself (`trackRecord`). */
export const TrackRecordSchema = wire.TrackRecordSchema.partial({ backdatedIncidents: true });

/** One service with its components and open incidents (`/api/services/{slug}`). */
export const ServiceDetailSchema = ServiceSchema.extend({
  components: z.array(ComponentSchema),
  incidents: z.array(IncidentSchema),
  timeToResolve: TimeToResolveSchema.optional(),
  earlyWarning: EarlyWarningSchema.nullable().optional(),
  trackRecord: TrackRecordSchema.optional(),
  probeTargets: wire.ServiceDetailSchema.shape.probeTargets.optional(),
});

/** A member's report (`POST /api/user/reports`). */
export const ReportSchema = z.object({
  id: z.string(),
  service: z.string(),
  component: z.string().nullable(),
  note: z.string(),
  reporter: z.string(),
  createdAt: z.string(),
});
/** A stored report. */
export type Report = z.infer<typeof ReportSchema>;
/** One service in full. */
export type ServiceDetail = z.infer<typeof ServiceDetailSchema>;

/** Uptime percentages per window and mean time to recovery (`/api/services/{slug}/uptime`). */
export const UptimeSchema = wire.UptimeSchema.pick({
  days7: true,
  days30: true,
  days90: true,
  mttrMinutes: true,
  disruptions: true,
  asOf: true,
  observedSince: true,
  note: true,
}).partial({ asOf: true, observedSince: true, note: true });
/** Uptime figures of one service. */
export type Uptime = z.infer<typeof UptimeSchema>;

/** The page envelope of DESIGN §10 around `item`. */
export function pageSchema<T extends z.ZodType>(item: T) {
  return wire.pageSchema(item, "results");
}

/** A page of results. */
export interface Page<T> {
  content: T[];
  totalElements: number;
  page: number;
  size: number;
  totalPages: number;
}

/** The error body of DESIGN §9. */
const ErrorBodySchema = z.object({
  error: z.string(),
  status: z.number(),
  message: z.string(),
  suggestions: z.array(z.string()).optional(),
});

/** The API answered with an error body; the exit code comes from its `error` code. */
export class ApiAnswerError extends CliError {
  constructor(
    readonly code: string,
    readonly httpStatus: number,
    /** The body's own `message`. */
    readonly apiMessage: string,
    readonly suggestions: readonly string[],
  ) {
    super(exitCodeOf(code), `The API answered ${httpStatus} ${code}: ${apiMessage}`);
  }
}

/** Where the API is and how to call it. */
export interface ClientOptions {
  /** Base URL without a trailing slash, e.g. `http://localhost:8080`. */
  readonly baseUrl: string;
  /** Sent as `X-API-Key` when set. */
  readonly apiKey?: string;
  /** Per-request timeout in milliseconds. */
  readonly timeoutMs: number;
  /** The fetch to use (tests may pass their own). */
  readonly fetch?: typeof fetch;
  /** The proxy requests go through (cli/status/proxy.ts), named in errors; none by default. */
  readonly proxy?: { readonly url: string; readonly variable: string } | null;
}

/** Query of `GET /api/incidents`. */
export interface IncidentQuery {
  readonly active?: boolean;
  readonly service?: string;
  readonly limit?: number;
}

/** Query of `GET /api/maintenances`. */
export interface MaintenanceQuery {
  /** Only these services (at most 50 per call). */
  readonly services: readonly string[];
  /** Only those in progress or starting within this duration (`2h`). */
  readonly within?: string;
  readonly limit?: number;
}

/** A monitor as `GET /api/user/monitors` answers it (the fields the CLI shows). */
export const MonitorSchema = wire.MonitorBriefSchema.extend({
  openIncidents: z.array(IncidentSchema),
});
/** A monitor. */
export type Monitor = z.infer<typeof MonitorSchema>;

/** A board as `GET /api/boards/{slug}` answers it (the fields the CLI reads). */
export const BoardSchema = wire.BoardSchema.pick({ slug: true, title: true, currentStatus: true })
  .extend({
    entries: z.array(
      wire.EntrySchema.pick({
        kind: true,
        id: true,
        name: true,
        currentStatus: true,
        services: true,
      }),
    ),
  });
/** A board. */
export type Board = z.infer<typeof BoardSchema>;

/** The vendors a host, URL or error line belongs to (`GET /api/lookup`). */
export const LookupSchema = wire.LookupSchema;
/** A lookup's answer. */
export type Lookup = z.infer<typeof LookupSchema>;

/** A vendor added by its status page URL (`POST /api/user/vendors`). */
export const AddedVendorSchema = wire.AddedVendorSchema;
/** An added vendor. */
export type AddedVendor = z.infer<typeof AddedVendorSchema>;

/** The calls the commands make. */
export interface StatusClient {
  /** `GET /api/lookup?target=…`: the vendors a host, URL or error line belongs to. */
  lookup(target: string): Promise<Lookup>;
  /** `POST /api/user/vendors` (needs an API key holding `monitors:write`). */
  addVendor(statusPageUrl: string): Promise<AddedVendor>;
  /**
   * `GET /api/boards/{slug}` (a private board needs the account's key); no such board (or one
   * this key may not see) throws a usage error.
   */
  getBoard(slug: string): Promise<Board>;
  /** `GET /api/user/monitors` (needs an API key holding `monitors:read`). */
  listMonitors(limit: number, page: number): Promise<Page<Monitor>>;
  /**
   * `POST /api/user/reports` (needs an API key holding `monitors:write`); an unknown slug
   * throws {@link UnknownVendor}.
   */
  report(
    report: { service: string; component?: string; note?: string },
  ): Promise<Report>;
  /** `GET /api/services?q=…`: close matches for a slug that does not exist. */
  searchServices(q: string, limit: number): Promise<Page<Service>>;
  /** `GET /api/services/{slug}`; an unknown slug throws {@link UnknownVendor}. */
  getService(slug: string): Promise<ServiceDetail>;
  /** `GET /api/services/{slug}/uptime`; an unknown slug throws {@link UnknownVendor}. */
  getUptime(slug: string): Promise<Uptime>;
  /** `GET /api/incidents` (newest first); an unknown `service` throws {@link UnknownVendor}. */
  listIncidents(query: IncidentQuery): Promise<Page<Incident>>;
  /** `GET /api/maintenances`: unfinished maintenances, earliest first. */
  listMaintenances(query: MaintenanceQuery): Promise<Page<Incident>>;
}

/** Why a fetch failed, in a few words (no stack). */
function networkReason(err: unknown): string {
  const cause = err instanceof Error && err.cause instanceof Error ? err.cause : err;
  const text = cause instanceof Error ? cause.message : String(cause);
  if (/refused/i.test(text)) return "connection refused";
  if (/dns|lookup|resolve/i.test(text)) return "host not found";
  return text.split("\n")[0]!.replace(/^error sending request for url \([^)]*\):\s*/i, "")
    .replace(/^client error \(\w+\):\s*/i, "");
}

/** Builds a client for `options`. */
export function createClient(options: ClientOptions): StatusClient {
  const doFetch = options.fetch ?? fetch;
  const base = options.baseUrl.replace(/(?<!\/)\/+$/, "") + "/";
  const headers: Record<string, string> = { accept: "application/json" };
  if (options.apiKey) headers["x-api-key"] = options.apiKey;
  const via = options.proxy
    ? ` through the proxy ${options.proxy.url} (${options.proxy.variable}; NO_PROXY names hosts reached directly)`
    : "";

  async function send(url: URL, body?: unknown): Promise<Response> {
    const init = body === undefined ? {} : {
      method: "POST",
      body: JSON.stringify(body),
      headers: { ...headers, "content-type": "application/json" },
    };
    // A POST is sent once: sent twice, a report would count twice.
    const attempts = body === undefined ? 2 : 1;
    for (let attempt = 0;; attempt++) {
      try {
        return await doFetch(url, {
          headers,
          ...init,
          signal: AbortSignal.timeout(options.timeoutMs),
        });
      } catch (err) {
        if (err instanceof DOMException && err.name === "TimeoutError") {
          throw new ApiFailure(
            `The statusd API at ${options.baseUrl} did not answer${via} within ` +
              `${options.timeoutMs / 1000} s`,
          );
        }
        if (attempt + 1 >= attempts) {
          throw new ApiFailure(
            `Cannot reach the statusd API at ${options.baseUrl}${via}: ${networkReason(err)}`,
          );
        }
      }
    }
  }

  async function get<T>(
    path: string,
    schema: z.ZodType<T>,
    query: object = {},
    payload?: unknown,
  ): Promise<T> {
    const url = new URL(path, base);
    for (const [k, v] of Object.entries(query)) {
      if (v !== undefined) url.searchParams.set(k, String(v));
    }
    const res = await send(url, payload);
    let body: unknown;
    try {
      body = await res.json();
    } catch {
      throw new ApiFailure(
        `The API at ${options.baseUrl} answered ${res.status} to ${url.pathname} ` +
          `with a body that is not JSON (is --api pointing at statusd?)`,
      );
    }
    if (!res.ok) {
      const e = ErrorBodySchema.safeParse(body);
      if (!e.success) {
        throw new ApiFailure(`The API answered ${res.status} to ${url.pathname}`);
      }
      // A 404 for the route itself means the server is not (this version of) statusd.
      if (res.status === 404 && /^No route\b/.test(e.data.message)) {
        throw new ApiFailure(
          `The API at ${options.baseUrl} has no ${url.pathname} (is --api pointing at statusd?)`,
        );
      }
      throw new ApiAnswerError(e.data.error, res.status, e.data.message, e.data.suggestions ?? []);
    }
    const parsed = schema.safeParse(body);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      throw new ApiFailure(
        `Unexpected answer from ${url.pathname}: ${issue.path.join(".") || "body"}: ` +
          issue.message,
      );
    }
    return parsed.data;
  }

  const servicePage = pageSchema(ServiceSchema);
  const incidentPage = pageSchema(IncidentSchema);

  /** Turns a 404 for a service into UnknownVendor, with suggestions from a search if needed. */
  async function ofService<T>(slug: string, read: () => Promise<T>): Promise<T> {
    try {
      return await read();
    } catch (err) {
      if (!(err instanceof ApiAnswerError) || err.httpStatus !== 404) throw err;
      let suggestions = err.suggestions;
      if (!suggestions.length) {
        const found = await client.searchServices(slug, 5).catch(() => {
          throw new ApiFailure(err.message);
        });
        suggestions = found.content.map((s) => s.slug).filter((s) => s !== slug);
      }
      throw new UnknownVendor(slug, suggestions);
    }
  }

  const monitorPage = pageSchema(MonitorSchema);
  const client: StatusClient = {
    lookup: (target) => get("api/lookup", LookupSchema, { target }),
    addVendor: (statusPageUrl) => get("api/user/vendors", AddedVendorSchema, {}, { statusPageUrl }),
    listMonitors: (limit, page) => get("api/user/monitors", monitorPage, { limit, page }),
    report: (report) =>
      ofService(report.service, () => get("api/user/reports", ReportSchema, {}, report)),
    async getBoard(slug) {
      try {
        return await get(`api/boards/${encodeURIComponent(slug)}`, BoardSchema);
      } catch (err) {
        if (err instanceof ApiAnswerError && err.httpStatus === 404) {
          throw new UnknownBoard(slug);
        }
        throw err;
      }
    },
    searchServices: (q, limit) => get("api/services", servicePage, { q, limit }),
    getService: (slug) =>
      ofService(slug, () => get(`api/services/${encodeURIComponent(slug)}`, ServiceDetailSchema)),
    getUptime: (slug) =>
      ofService(
        slug,
        () => get(`api/services/${encodeURIComponent(slug)}/uptime`, UptimeSchema),
      ),
    listIncidents: (q) => {
      const read = () =>
        get("api/incidents", incidentPage, {
          active: q.active ? "true" : undefined,
          service: q.service,
          limit: q.limit,
        });
      return q.service === undefined ? read() : ofService(q.service, read);
    },
    listMaintenances: (q) =>
      get("api/maintenances", incidentPage, {
        service: q.services.join(","),
        within: q.within,
        limit: q.limit,
      }),
  };
  return client;
}
