/**
 * A typed client of the public statusd REST API. Every answer is parsed with zod, so the
 * commands only see the fields they declare. Network errors are retried once; a timeout, an
 * error answer or an unexpected body becomes a one-line {@link CliError}.
 * @module
 */
import { z } from "zod";
import { READING_ERROR_KINDS, READING_STATES } from "../../domain/reading.ts";
import { STATUS_LEVELS } from "../../domain/status.ts";
import { RESOLUTION_IMPACTS, type ResolutionImpact } from "../../domain/resolution.ts";
import { ApiFailure, CliError, exitCodeOf, UnknownBoard, UnknownVendor } from "./exit.ts";

/** Every status level, ranked ones first. */
export const LevelSchema = z.enum([...STATUS_LEVELS, "UNKNOWN"]);

/** An ISO 8601 timestamp, or null when the API has none. */
const Time = z.string().nullable();

/** Reading health: can statusd read the vendor; if not, why and since when. */
export const ReadingSchema = z.object({
  state: z.enum(READING_STATES),
  summary: z.string(),
  lastAttemptAt: Time,
  lastSuccessAt: Time,
  consecutiveFailures: z.number().int(),
  error: z.object({
    kind: z.enum(READING_ERROR_KINDS),
    httpStatus: z.number().int().nullable(),
    message: z.string(),
    since: z.string(),
  }).nullable(),
  notes: z.array(z.string()),
  redetection: z.object({ at: z.string(), from: z.string(), to: z.string() }).nullable(),
});
/** Reading health of one service. */
export type Reading = z.infer<typeof ReadingSchema>;

/** A service as `/api/services` lists it (DESIGN §4). */
export const ServiceSchema = z.object({
  name: z.string(),
  slug: z.string(),
  currentStatus: LevelSchema,
  uptimePercent: z.number().nullable(),
  /** Seconds of the 30 days actually observed (absent from older servers). */
  uptimeObservedSeconds: z.number().optional(),
  category: z.string(),
  provider: z.string(),
  statusPageUrl: z.string(),
  platform: z.string(),
  lastCheckedAt: Time,
  lastChangedAt: Time,
  /** Absent from servers older than reading health. */
  reading: ReadingSchema.optional(),
});
/** A service as listed. */
export type Service = z.infer<typeof ServiceSchema>;

/** One component of a service. */
export const ComponentSchema = z.object({
  id: z.string(),
  name: z.string(),
  status: LevelSchema,
  group: z.string().nullable(),
  updatedAt: Time,
});

/** An incident or maintenance with its timeline. */
export const IncidentSchema = z.object({
  id: z.string(),
  serviceSlug: z.string(),
  title: z.string(),
  status: z.string(),
  impact: z.string(),
  startedAt: z.string(),
  updatedAt: Time,
  resolvedAt: Time,
  url: z.string().nullable(),
  components: z.array(z.string()),
  updates: z.array(z.object({ at: z.string(), status: z.string(), body: z.string() })),
  /** Maintenance window as announced (absent from servers older than this client). */
  scheduledStartAt: Time.optional(),
  scheduledEndAt: Time.optional(),
  /** What the vendor rewrote of it after publishing (absent from older servers). */
  revisions: z.array(z.object({
    at: z.string(),
    kind: z.string(),
    before: z.string(),
    after: z.string(),
  })).optional(),
  /** When the vendor took it off its page; null while listed (absent from older servers). */
  removedAt: Time.optional(),
  /** A maintenance past its announced end the vendor has not closed (absent from older servers). */
  overrun: z.object({ since: z.string(), seconds: z.number() }).nullable().optional(),
});
/** An incident as the API returns it. */
export type Incident = z.infer<typeof IncidentSchema>;

/** How long a set of incidents took to resolve. */
const ResolutionFigureSchema = z.object({
  incidents: z.number().int(),
  p50Minutes: z.number().nullable(),
  p90Minutes: z.number().nullable(),
});

/** Typical time to resolve: p50/p90 minutes over `windowDays`, overall and per impact. */
export const TimeToResolveSchema = z.object({
  windowDays: z.number().int(),
  all: ResolutionFigureSchema,
  byImpact: z.object(
    Object.fromEntries(RESOLUTION_IMPACTS.map((i) => [i, ResolutionFigureSchema])) as Record<
      ResolutionImpact,
      typeof ResolutionFigureSchema
    >,
  ),
});
/** Typical time to resolve of one service. */
export type TimeToResolve = z.infer<typeof TimeToResolveSchema>;

/** statusd's own early warning of a service (`earlyWarning`). */
export const EarlyWarningSchema = z.object({
  phase: z.enum(["suspected", "acknowledged"]),
  since: z.string(),
  suspectedAt: z.string(),
  acknowledgedAt: z.string().nullable(),
  /** Absent from servers older than this client. */
  vendorClaimedStart: z.string().nullable().optional(),
  delayMinutes: z.number().nullable(),
  evidence: z.string(),
  probes: z.object({
    failed: z.number(),
    total: z.number(),
    hosts: z.array(z.string()),
  }),
  reporters: z.number(),
  component: z.string().nullable(),
  summary: z.string(),
  /** Absent from servers older than this client. */
  visibility: z.enum(["public", "account"]).optional(),
  ownObservation: z.literal(true),
});

/** How quickly the vendor admits trouble statusd saw itself (`trackRecord`). */
export const TrackRecordSchema = z.object({
  windowDays: z.number(),
  episodes: z.number(),
  unacknowledged: z.number(),
  vendorFirst: z.number(),
  averageDelayMinutes: z.number().nullable(),
  grade: z.string().nullable(),
  gradeNote: z.string().nullable(),
  /** Absent from servers older than this client. */
  backdatedIncidents: z.number().optional(),
});

/** One service with its components and open incidents (`/api/services/{slug}`). */
export const ServiceDetailSchema = ServiceSchema.extend({
  components: z.array(ComponentSchema),
  incidents: z.array(IncidentSchema),
  /** Absent from servers older than this client. */
  timeToResolve: TimeToResolveSchema.optional(),
  /** Absent from servers older than this client. */
  earlyWarning: EarlyWarningSchema.nullable().optional(),
  /** Absent from servers older than this client. */
  trackRecord: TrackRecordSchema.optional(),
  /** Absent from servers older than this client. */
  probeTargets: z.array(z.object({
    url: z.string(),
    lastAnswer: z.enum(["up", "down", "refused"]).nullable(),
    since: z.string().nullable(),
  })).optional(),
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
export const UptimeSchema = z.object({
  days7: z.number().nullable(),
  days30: z.number().nullable(),
  days90: z.number().nullable(),
  /** Mean minutes to recovery of the disruptions that ended in the last 90 days. */
  mttrMinutes: z.number().nullable(),
  /** How many disruptions ended in the last 90 days (the MTTR sample). */
  disruptions: z.number().int(),
  /** Window end the figures were computed for (older servers leave it out). */
  asOf: z.string().optional(),
  /** First instant of the 90 days with a known status; null when none (older servers: absent). */
  observedSince: z.string().nullable().optional(),
  /** "not enough data yet (4 min observed)" while less than a day was observed (older: absent). */
  note: z.string().nullable().optional(),
});
/** Uptime figures of one service. */
export type Uptime = z.infer<typeof UptimeSchema>;

/** The page envelope of DESIGN §10 around `item`. */
export function pageSchema<T extends z.ZodType>(item: T) {
  return z.object({
    content: z.array(item),
    totalElements: z.number().int(),
    page: z.number().int(),
    size: z.number().int(),
    totalPages: z.number().int(),
  });
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
export const MonitorSchema = z.object({
  id: z.string(),
  service: z.string(),
  serviceName: z.string().nullable(),
  components: z.array(z.string()),
  label: z.string().nullable(),
  paused: z.boolean(),
  currentStatus: LevelSchema,
  uptime30d: z.number().nullable(),
  state: z.string(),
  missingComponents: z.array(z.string()),
  openIncidents: z.array(IncidentSchema),
  lastCheckedAt: z.string().nullable(),
});
/** A monitor. */
export type Monitor = z.infer<typeof MonitorSchema>;

/** A board as `GET /api/boards/{slug}` answers it (the fields the CLI reads). */
export const BoardSchema = z.object({
  slug: z.string(),
  title: z.string(),
  currentStatus: LevelSchema,
  entries: z.array(z.object({
    kind: z.enum(["group", "monitor"]),
    id: z.string(),
    name: z.string(),
    currentStatus: LevelSchema,
    services: z.array(z.string()),
  })),
});
/** A board. */
export type Board = z.infer<typeof BoardSchema>;

/** The calls the commands make. */
export interface StatusClient {
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
