/**
 * Shared steps of the JSON adapters: decode and validate a body (failures become PayloadError
 * naming the field), look a platform value up in a mapping table, order a timeline.
 * @module
 */
import type { z } from "zod";
import type {
  Impact,
  IncidentSnapshot,
  IncidentUpdate,
  RankedLevel,
  StatusLevel,
} from "../../domain/mod.ts";
import { isOpen, worst } from "../../domain/mod.ts";
import { type ParseContext, PayloadError, UndecodableError } from "./adapter.ts";

/** `incidents[0].incident_updates[2].status`, or `$` for the whole body. */
export function formatPath(path: readonly PropertyKey[]): string {
  let out = "";
  for (const key of path) {
    out += typeof key === "number" ? `[${key}]` : `${out ? "." : ""}${String(key)}`;
  }
  return out || "$";
}

function describe(value: unknown): string {
  if (value === undefined) return "nothing";
  if (value === null) return "null";
  // Never serialise a whole large value just to quote its start.
  if (Array.isArray(value) && value.length > 20) return `array of ${value.length} items`;
  if (typeof value === "string" && value.length > 1000) {
    return `string ${JSON.stringify(value.slice(0, 57))}...`;
  }
  if (typeof value === "object" && !Array.isArray(value) && Object.keys(value).length > 20) {
    return `object with ${Object.keys(value).length} keys`;
  }
  const text = JSON.stringify(value) ?? String(value);
  return `${Array.isArray(value) ? "array" : typeof value} ${
    text.length > 60 ? text.slice(0, 57) + "..." : text
  }`;
}

function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let v = root;
  for (const key of path) {
    if (v === null || typeof v !== "object") return undefined;
    v = (v as Record<PropertyKey, unknown>)[key];
  }
  return v;
}

/** Deepest nesting of arrays and objects a status document may have (real ones stay under 10). */
export const MAX_JSON_DEPTH = 64;

/**
 * True when `text` nests arrays or objects deeper than `limit` (brackets inside strings do not
 * count). A linear scan: deep documents are refused before JSON.parse spends seconds on them.
 */
export function nestsDeeperThan(text: string, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > limit) return true;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return false;
}

/**
 * Items kept of any one JSON array; later ones are cut before validation (validating costs
 * about 3 µs per item on the event loop, and a reading keeps far fewer: READING_LIMITS).
 */
export const MAX_JSON_ARRAY_ITEMS = 10_000;

/** Cuts every array in a freshly parsed `value` to `max` items, in place; returns `value`. */
export function capArrays<T>(value: T, max = MAX_JSON_ARRAY_ITEMS): T {
  if (Array.isArray(value)) {
    if (value.length > max) value.length = max;
    for (const item of value) capArrays(item, max);
  } else if (value !== null && typeof value === "object") {
    for (const item of Object.values(value)) capArrays(item, max);
  }
  return value;
}

/**
 * JSON.parse; a body that is not JSON (an HTML error page, a cut-off body) or that nests deeper
 * than {@link MAX_JSON_DEPTH} is a PayloadError. Arrays are cut to {@link MAX_JSON_ARRAY_ITEMS}.
 */
export function decodeJson(platform: string, body: string): unknown {
  if (nestsDeeperThan(body, MAX_JSON_DEPTH)) {
    throw new UndecodableError(platform, `nested deeper than ${MAX_JSON_DEPTH} levels`);
  }
  try {
    return capArrays(JSON.parse(body));
  } catch {
    const start = body.trimStart().slice(0, 40).replace(/\s+/g, " ");
    throw new UndecodableError(platform, `not JSON (body starts with ${JSON.stringify(start)})`);
  }
}

/**
 * Validates decoded JSON against `schema`; the first issue becomes a PayloadError with its path.
 * `at` is where `json` sits in the whole body, when validating a part of it.
 */
export function validate<S extends z.ZodType>(
  platform: string,
  json: unknown,
  schema: S,
  at: readonly PropertyKey[] = [],
): z.output<S> {
  const result = schema.safeParse(json);
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  const found = valueAt(json, issue.path);
  throw new PayloadError(
    platform,
    formatPath([...at, ...issue.path]),
    `${issue.message} (found ${describe(found)})`,
  );
}

/** Decode then validate: the usual first line of `parse`. */
export function decode<S extends z.ZodType>(
  platform: string,
  body: string,
  schema: S,
): z.output<S> {
  return validate(platform, decodeJson(platform, body), schema);
}

/**
 * Looks `value` up in a mapping table. A value the table lacks is reported through
 * `ctx.unknownValue` and gives `fallback` (never a guess).
 */
export function lookup<V>(
  table: Readonly<Record<string, V>>,
  value: string | number,
  field: string,
  ctx: ParseContext,
  fallback: NoInfer<V>,
): V {
  const key = String(value);
  if (Object.hasOwn(table, key)) return table[key]!;
  ctx.unknownValue?.(field, key);
  return fallback;
}

/** Sorts updates oldest first (stable for equal times) and drops repeated ids. */
export function timeline(
  entries: readonly (IncidentUpdate & { readonly id?: string })[],
): IncidentUpdate[] {
  const seen = new Set<string>();
  const kept: IncidentUpdate[] = [];
  for (const e of entries) {
    if (e.id !== undefined) {
      if (seen.has(e.id)) continue;
      seen.add(e.id);
    }
    kept.push({ at: e.at, status: e.status, body: e.body });
  }
  return kept
    .map((u, i) => ({ u, i }))
    .sort((a, b) => a.u.at - b.u.at || a.i - b.i)
    .map(({ u }) => u);
}

/** The level an open incident's impact stands for, where a platform publishes nothing else. */
export const IMPACT_LEVEL: Record<Impact, RankedLevel> = {
  NONE: "OPERATIONAL",
  MINOR: "DEGRADED_PERFORMANCE",
  MAJOR: "PARTIAL_OUTAGE",
  CRITICAL: "MAJOR_OUTAGE",
  MAINTENANCE: "UNDER_MAINTENANCE",
};

/**
 * DESIGN §4 for documents with no page or component state: the worst impact of the open
 * incidents and in-progress maintenances; OPERATIONAL when none is open. Scheduled (future)
 * maintenance does not count.
 */
export function levelFromOpenIncidents(incidents: readonly IncidentSnapshot[]): StatusLevel {
  const open = incidents.filter((i) => isOpen(i.status) && i.status !== "SCHEDULED");
  return worst(["OPERATIONAL", ...open.map((i) => IMPACT_LEVEL[i.impact])]);
}

/** `path` resolved under a status page URL, keeping any sub-path (`/eu` + `api/x` → `/eu/api/x`). */
export function underPage(pageUrl: string | URL, path: string): URL {
  // String work and one parse: the poller asks this on every poll, and each URL
  // setter parses the whole URL again.
  let base = String(pageUrl);
  const hash = base.indexOf("#");
  if (hash >= 0) base = base.slice(0, hash);
  const query = base.indexOf("?");
  if (query >= 0) base = base.slice(0, query);
  return new URL(path, base.endsWith("/") ? base : `${base}/`);
}

/**
 * Validates one item of a document on its own: null (and a note through `ctx.dropped` naming
 * the field, e.g. `included[3].attributes.starts_at`, and why: `missing`, or the issue and the
 * value found) when it does not match `schema`.
 * `at` is the item's path in the body.
 */
export function validateItem<S extends z.ZodType>(
  raw: unknown,
  schema: S,
  at: readonly PropertyKey[],
  ctx: Pick<ParseContext, "dropped">,
): z.output<S> | null {
  const result = schema.safeParse(raw);
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  const found = valueAt(raw, issue.path);
  ctx.dropped?.(
    formatPath([...at, ...issue.path]),
    found === undefined ? "missing" : `${issue.message} (found ${describe(found)})`,
  );
  return null;
}

/**
 * Validates each element of a list on its own ({@link validateItem}), so one malformed item does
 * not cost the reading: it is left out with a note (`incidents[2].started_at: …`); the others are
 * read, then passed to `read` with their own path (for nested lists). `at` is the list's path in
 * the body. A missing list (`null`/absent) is empty; whether the list itself is an array is the
 * document schema's job (a whole-document error stays a {@link PayloadError}).
 */
export function validateEach<S extends z.ZodType, T = z.output<S>>(
  list: readonly unknown[] | null | undefined,
  item: S,
  at: readonly PropertyKey[],
  ctx: Pick<ParseContext, "dropped">,
  read: (value: z.output<S>, path: readonly PropertyKey[]) => T = (value) => value as T,
): T[] {
  const kept: T[] = [];
  (list ?? []).forEach((raw, i) => {
    const value = validateItem(raw, item, [...at, i], ctx);
    if (value !== null) kept.push(read(value, [...at, i]));
  });
  return kept;
}
