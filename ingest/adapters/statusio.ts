/**
 * status.io (FORMATS.md §4): `https://api.status.io/1.0/status/<page id>` gives the overall
 * code, components with their containers (regions), incidents and maintenances.
 * @module
 */
import { z } from "zod";
import type {
  ComponentSnapshot,
  Impact,
  IncidentSnapshot,
  IncidentStatus,
  Snapshot,
  StatusLevel,
} from "../../domain/mod.ts";
import { severity, worst } from "../../domain/mod.ts";
import { type Adapter, type ParseContext, PayloadError } from "./adapter.ts";
import { decode, IMPACT_LEVEL, lookup, timeline, validateEach } from "./_json_payload.ts";
import { jsonTime } from "./_json_time.ts";

const PLATFORM = "statusio";

/** `status_code` of the page, components and containers. */
export const STATUS_CODE: Record<string, StatusLevel> = {
  "100": "OPERATIONAL",
  "200": "UNDER_MAINTENANCE",
  "300": "DEGRADED_PERFORMANCE",
  "400": "PARTIAL_OUTAGE",
  "500": "MAJOR_OUTAGE",
  "600": "MAJOR_OUTAGE",
};

/** A message's `status` code as the impact it announces (a security event counts as critical). */
export const MESSAGE_IMPACT: Record<string, Impact> = {
  "100": "NONE",
  "200": "MAINTENANCE",
  "300": "MINOR",
  "400": "MAJOR",
  "500": "CRITICAL",
  "600": "CRITICAL",
};

/** Incident message `state`. */
export const INCIDENT_STATE: Record<string, IncidentStatus> = {
  "100": "INVESTIGATING",
  "200": "IDENTIFIED",
  "300": "MONITORING",
};

/** Maintenance message `state` (100 when announced, 200 when started). */
export const MAINTENANCE_STATE: Record<string, IncidentStatus> = {
  "100": "SCHEDULED",
  "200": "IN_PROGRESS",
};

const code = z.number().int();

const message = z.object({
  details: z.string().nullish(),
  state: code,
  status: code,
  datetime: jsonTime,
});

const event = z.object({
  _id: z.string(),
  name: z.string(),
  datetime_open: jsonTime,
  current_active: z.boolean().nullish(),
  datetime_planned_start: jsonTime.nullish(),
  datetime_planned_end: jsonTime.nullish(),
  /** Read one by one: a malformed message is dropped with a note. */
  messages: z.array(z.unknown()).nullish(),
  components_affected: z.array(z.object({ _id: z.string() })).nullish(),
});
type Event = z.output<typeof event>;

const withCode = z.object({ id: z.string(), name: z.string(), status_code: code });

const component = withCode.extend({ containers: z.array(withCode).nullish() });

/** The public status API answer; a malformed component or event is dropped with a note. */
const document = z.object({
  result: z.object({
    status_overall: z.object({ status_code: code }),
    status: z.array(z.unknown()),
    incidents: z.array(z.unknown()).nullish(),
    maintenance: z.object({
      active: z.array(z.unknown()).nullish(),
      upcoming: z.array(z.unknown()).nullish(),
    }).nullish(),
  }),
});
type Result = z.output<typeof document>["result"];

const PAGE_ID = /(?:^|[^0-9a-f])([0-9a-f]{24})(?:$|[^0-9a-f])/i;

/** The 24-hex page id in a status page URL (path or query), or null. */
function pageIdOf(url: URL): string | null {
  return PAGE_ID.exec(url.pathname + url.search)?.[1] ?? null;
}

/**
 * The API URL for a page. The status page URL should carry the 24-hex page id (the API URL
 * itself, or e.g. `https://status.example.com/pages/<id>`); a custom domain that already points
 * at `/1.0/status/<id>` is kept as is. Without an id, `discovery` finds it in the page (the
 * poller asks it first); called anyway, the page itself is returned, and `parse` answers with
 * a PayloadError naming the id it finds there.
 */
function endpoint(vendor: { statusPageUrl: string }): URL {
  const url = new URL(vendor.statusPageUrl);
  const id = pageIdOf(url);
  if (!id) return url;
  if (url.pathname.startsWith("/1.0/status/")) return new URL(`/1.0/status/${id}`, url.origin);
  return new URL(`https://api.status.io/1.0/status/${id}`);
}

/** `…/1.0/status/<id>` in a page, with the URL text before it (absolute, `//host`, or a path). */
const EMBEDDED_API =
  /(?<![^\s"'`<>()=,;])([^\s"'`<>()=,;]*)\/1\.0\/status\/([0-9a-f]{24})(?![0-9a-f])/gi;
const STATUSPAGE_ID = /statuspage_?id["'\s:=]+([0-9a-f]{24})(?![0-9a-f])/i;
const HOST_ONLY = /^[a-z0-9-]+(\.[a-z0-9-]+)+(:\d+)?$/i;

/**
 * The API URL embedded in a status page (FORMATS.md §4: the page carries its id in an
 * `api.status.io/1.0/status/<id>` URL or near `statuspage_id`). An embedded URL on the page's
 * own origin is kept as written: custom domains serve the same API (e.g.
 * `status.nintex.com/1.0/status/<id>`), and this is also how a test page on loopback points at
 * its simulator. On any other host only the id is taken, and asked of `api.status.io`, so a
 * page cannot send the poller to an arbitrary third host.
 */
export function discoverEndpoint(pageHtml: string, pageUrl: URL): URL | null {
  const html = pageHtml.replaceAll("\\/", "/"); // JSON-escaped URLs inside scripts
  for (const m of html.matchAll(EMBEDDED_API)) {
    const [, prefix = "", id] = m;
    const path = `/1.0/status/${id}`;
    let url: URL;
    try {
      url = HOST_ONLY.test(prefix)
        ? new URL(`https://${prefix}${path}`)
        : new URL(`${prefix}${path}`, pageUrl);
    } catch {
      continue;
    }
    if (url.origin === pageUrl.origin) return new URL(url.pathname, url.origin);
    return new URL(`https://api.status.io${path}`);
  }
  const id = STATUSPAGE_ID.exec(html)?.[1];
  return id ? new URL(`https://api.status.io/1.0/status/${id}`) : null;
}

/** A page's HTML instead of the API: a PayloadError that says which endpoint to configure. */
function htmlPageError(body: string, pageUrl: URL): PayloadError | null {
  if (!/^\s*</.test(body)) return null;
  const api = discoverEndpoint(body, pageUrl);
  return new PayloadError(
    PLATFORM,
    "$",
    api
      ? `an HTML page, not the status API: configure ${api.href}`
      : "not JSON (an HTML page, and no status.io page id in it)",
  );
}

/** A component reads its own code raised by its worst container (region). */
function toComponents(rows: Result["status"], ctx: ParseContext): ComponentSnapshot[] {
  return validateEach(rows, component, ["result", "status"], ctx).map((row) => {
    const own = lookup(STATUS_CODE, row.status_code, "component.status_code", ctx, "UNKNOWN");
    const regions = (row.containers ?? []).map((c) =>
      lookup(STATUS_CODE, c.status_code, "container.status_code", ctx, "UNKNOWN")
    );
    return {
      externalId: row.id,
      name: row.name.trim(),
      group: null,
      status: own === "UNKNOWN" ? "UNKNOWN" : worst([own, ...regions]),
    };
  });
}

/** The most severe impact the messages announced. */
function peakImpact(
  messages: readonly z.output<typeof message>[],
  fallback: Impact,
  ctx: ParseContext,
): Impact {
  const impacts = messages.map((m) =>
    lookup(MESSAGE_IMPACT, m.status, "message.status", ctx, fallback)
  );
  return impacts.reduce<Impact>(
    (a, b) => (severity(IMPACT_LEVEL[b])! > severity(IMPACT_LEVEL[a])! ? b : a),
    fallback,
  );
}

/**
 * An incident is open while `current_active`, in the phase of its latest message; a
 * maintenance takes its list's status (`active` or `upcoming`).
 */
function toEvent(
  raw: Event,
  path: readonly PropertyKey[],
  kind: "incident" | "maintenance",
  listStatus: IncidentStatus | null,
  ctx: ParseContext,
  pageId: string | null,
): IncidentSnapshot {
  const table = kind === "incident" ? INCIDENT_STATE : MAINTENANCE_STATE;
  const fallback = listStatus ?? "INVESTIGATING";
  const messages = validateEach(raw.messages, message, [...path, "messages"], ctx);
  const updates = timeline(messages.map((m) => ({
    at: m.datetime,
    status: lookup(table, m.state, `${kind}_message.state`, ctx, fallback),
    body: m.details ?? "",
  })));
  const status = listStatus ??
    (raw.current_active === false ? "RESOLVED" : updates.at(-1)?.status ?? fallback);
  const updatedAt = updates.at(-1)?.at ?? raw.datetime_open;
  return {
    externalId: raw._id,
    title: raw.name.trim(),
    status,
    impact: kind === "maintenance" ? "MAINTENANCE" : peakImpact(messages, "NONE", ctx),
    startedAt: raw.datetime_planned_start ?? raw.datetime_open,
    updatedAt,
    resolvedAt: status === "RESOLVED" ? updatedAt : null,
    url: pageId === null ? null : eventLink(kind, pageId, raw._id),
    componentIds: (raw.components_affected ?? []).map((c) => c._id),
    updates,
    ...(kind === "maintenance"
      ? {
        scheduledStartAt: raw.datetime_planned_start ?? null,
        scheduledEndAt: raw.datetime_planned_end ?? null,
      }
      : {}),
  };
}

/**
 * status.io's own page of an incident or maintenance: `https://status.io/pages/incident/<page
 * id>/<id>` and `…/pages/maintenance/…`, as its feeds link them (tests/fixtures/statusio/SOURCES.md).
 * Null for an id that is not status.io's 24-hex form.
 */
function eventLink(kind: "incident" | "maintenance", pageId: string, id: string): string | null {
  return /^[0-9a-f]{24}$/i.test(id) ? `https://status.io/pages/${kind}/${pageId}/${id}` : null;
}

/** The status.io adapter. */
export const statusio: Adapter = {
  platform: PLATFORM,
  endpoint,
  discovery: {
    needed: (vendor) => pageIdOf(new URL(vendor.statusPageUrl)) === null,
    find: discoverEndpoint,
  },
  parse(body: string, ctx: ParseContext): Snapshot {
    const html = htmlPageError(body, ctx.pageUrl);
    if (html) throw html;
    const { result } = decode(PLATFORM, body, document);
    // The page id is in the API URL read (or the page URL); links need it.
    const pageId = (ctx.documentUrl && pageIdOf(ctx.documentUrl)) ?? pageIdOf(ctx.pageUrl);
    const events = (
      list: readonly unknown[] | null | undefined,
      at: readonly PropertyKey[],
      kind: "incident" | "maintenance",
      listStatus: IncidentStatus | null,
    ) =>
      validateEach(
        list,
        event,
        at,
        ctx,
        (e, path) => toEvent(e, path, kind, listStatus, ctx, pageId),
      );
    const incidents = events(result.incidents, ["result", "incidents"], "incident", null);
    const maintenances = [
      ...events(
        result.maintenance?.active,
        ["result", "maintenance", "active"],
        "maintenance",
        "IN_PROGRESS",
      ),
      ...events(
        result.maintenance?.upcoming,
        ["result", "maintenance", "upcoming"],
        "maintenance",
        "SCHEDULED",
      ),
    ];
    return {
      indicator: lookup(
        STATUS_CODE,
        result.status_overall.status_code,
        "status_overall.status_code",
        ctx,
        "UNKNOWN",
      ),
      components: toComponents(result.status, ctx),
      incidents: [...incidents, ...maintenances],
    };
  },
};
