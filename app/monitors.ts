/**
 * Monitors: an account watching one service, optionally narrowed to some of its
 * components. Reads need `monitors:read`, writes `monitors:write` (declared once each, for the
 * API's `x-required-scopes`); people signed in read as members and write as owners or admins.
 * Another account's monitor is simply not found. Free accounts keep up to
 * {@link FREE_MONITOR_LIMIT} monitors; other plans up to the self-hoster's limit.
 * @module
 */
import { z } from "zod";
import {
  type Account,
  componentKey,
  Conflict,
  dailyWorst,
  DAY_MS,
  Forbidden,
  type Incident,
  InvalidRequest,
  type Issue,
  monitorReading,
  type MonitorRecord,
  type NewMonitor,
  NotFound,
  type Page,
  pageOf,
  type PageRequest,
  PlanRequired,
  PreconditionFailed,
  readingOf,
  type StatusLevel,
} from "../domain/mod.ts";
import { closestWord } from "../domain/suggest.ts";
import { randomToken } from "./_tokens.ts";
import { suggestSlugs } from "./catalog.ts";
import type { AppContext } from "./context.ts";
import { everyRecord } from "./_every.ts";
import { type Access, type Caller, callerAccount } from "./policy.ts";
import type { MonitorView } from "../domain/mod.ts";

/** Reading monitors. */
export const READ_MONITORS: Access = { credential: "key", scopes: ["monitors:read"] };
/** Creating, changing and deleting monitors. */
export const WRITE_MONITORS: Access = {
  credential: "key",
  scopes: ["monitors:write"],
  role: { least: "ADMIN", refusal: "Only the account's owners and admins can change its monitors" },
};

/** Monitors a FREE account may keep. */
export const FREE_MONITOR_LIMIT = 10;
/** Monitors any account may keep when the self-hoster sets nothing. */
export const DEFAULT_MONITOR_LIMIT = 10_000;
/** Days of the monitor's uptime figure. */
export const MONITOR_UPTIME_DAYS = 30;

/** Days of a monitor's daily history (the public board's bars). */
export const HISTORY_DAYS = 90;

const Label = z.string().trim().min(1).max(100);
const ComponentName = z.string().trim().min(1).max(255);

/** What a create takes (validated here, whatever surface it came from). */
export const NewMonitorInput = z.object({
  service: z.string().trim().min(1).max(100),
  components: z.array(ComponentName).max(100).default([]),
  label: Label.nullable().default(null),
  slaTarget: z.number().gt(0).max(100).nullable().default(null),
  paused: z.boolean().default(false),
}).strict();

/** What an update may change (absent: unchanged). */
export const MonitorPatchInput = z.object({
  components: z.array(ComponentName).max(100).optional(),
  label: Label.nullable().optional(),
  slaTarget: z.number().gt(0).max(100).nullable().optional(),
  paused: z.boolean().optional(),
}).strict();

/** `input` checked against `schema`; a 400 naming each bad field otherwise. */
export function parse<T>(schema: z.ZodType<T>, input: unknown): T {
  const r = schema.safeParse(input);
  if (r.success) return r.data;
  const issues: Issue[] = r.error.issues.map((i) => ({
    parameter: i.path.length ? i.path.join(".") : "body",
    message: i.message,
  }));
  throw new InvalidRequest(issues);
}

/** Chosen component names, deduplicated (any case), each checked against the service's page. */
async function checkComponents(
  ctx: AppContext,
  slug: string,
  chosen: readonly string[],
  at = "",
): Promise<string[]> {
  const unique: string[] = [];
  const seen = new Set<string>();
  for (const name of chosen) {
    if (!seen.has(componentKey(name))) {
      seen.add(componentKey(name));
      unique.push(name.trim());
    }
  }
  if (unique.length === 0) return unique;
  const found = await ctx.store.catalog.detail(slug, { start: 0, end: 0 }, ctx.clock.now());
  const names = (found?.components ?? []).map((c) => c.name);
  const byKey = new Map(names.map((n) => [componentKey(n), n]));
  const issues: Issue[] = [];
  unique.forEach((name, i) => {
    if (byKey.has(componentKey(name))) return;
    const close = closestWord(componentKey(name), [...byKey.keys()]);
    issues.push({
      parameter: `${at}components.${i}`,
      message: `"${name}" is not a component of ${slug}` +
        (close ? `; did you mean "${byKey.get(close)}"?` : ""),
    });
  });
  if (issues.length) throw new InvalidRequest(issues);
  // Stored as the vendor names them.
  return unique.map((n) => byKey.get(componentKey(n))!);
}

/** What `record` reads now. */
export async function viewOf(ctx: AppContext, record: MonitorRecord): Promise<MonitorView> {
  const now = ctx.clock.now();
  const window = { start: now - MONITOR_UPTIME_DAYS * DAY_MS, end: now };
  const found = await ctx.store.history.servicePage(record.serviceSlug, {
    window,
    resolvedAfter: now,
    uptime: window,
    history: { start: now - HISTORY_DAYS * DAY_MS, end: now },
    pastSince: now,
    pastLimit: 0,
  });
  if (found === null) {
    const reading = monitorReading(null, [], record.components, window);
    return {
      ...record,
      serviceName: null,
      currentStatus: reading.currentStatus,
      state: reading.state,
      missingComponents: reading.missingComponents,
      uptime30d: reading.uptime,
      uptimeObservedMs: 0,
      openIncidents: [],
      lastCheckedAt: null,
      reading: null,
      history: dailyWorst([], now, HISTORY_DAYS, "UNKNOWN"),
    };
  }
  const service = found.detail.service;
  const components = found.history.components.map((c) => ({
    name: c.component.name,
    transitions: c.transitions,
    now: c.component.status,
  }));
  const whole = record.components.length === 0;
  const reading = monitorReading(
    { transitions: found.uptime.transitions, now: service.currentStatus },
    components,
    record.components,
    window,
  );
  const chosen = new Set(record.components.map(componentKey));
  const touching = (i: Incident) =>
    chosen.size === 0 || i.components.length === 0 ||
    i.components.some((c) => chosen.has(componentKey(c)));
  return {
    ...record,
    serviceName: service.name,
    currentStatus: reading.currentStatus,
    uptime30d: reading.uptime === null ? null : Math.round(reading.uptime * 1000) / 1000,
    uptimeObservedMs: reading.uptimeObservedMs,
    state: reading.state,
    missingComponents: reading.missingComponents,
    openIncidents: found.detail.incidents.filter(touching),
    lastCheckedAt: service.lastCheckedAt,
    reading: readingOf(service.reading, now, { stableSeconds: ctx.settings.pollStableSeconds }),
    history: whole
      ? dailyWorst(found.history.transitions, now, HISTORY_DAYS, service.currentStatus)
      : reading.timeline === null
      ? dailyWorst([], now, HISTORY_DAYS, "UNKNOWN")
      : dailyWorst(reading.timeline.transitions, now, HISTORY_DAYS, reading.timeline.now),
  };
}

/** The account's monitors, oldest first, optionally only those at `status`. */
export async function listMonitors(
  ctx: AppContext,
  who: Caller,
  page: PageRequest,
  filter: { readonly status?: StatusLevel } = {},
): Promise<Page<MonitorView>> {
  const account = callerAccount(who, READ_MONITORS);
  if (filter.status === undefined) {
    const { items, total } = await ctx.store.monitors.list(account.id, page);
    return pageOf(await Promise.all(items.map((m) => viewOf(ctx, m))), total, page);
  }
  // A status filter is over what monitors read now: read them all, then page.
  const records = await Array.fromAsync(everyRecord(ctx.store.monitors.list, account.id));
  const all = await Promise.all(records.map((m) => viewOf(ctx, m)));
  const matching = all.filter((m) => m.currentStatus === filter.status);
  const start = page.page * page.limit;
  return pageOf(matching.slice(start, start + page.limit), matching.length, page);
}

/** One of the account's monitors; NotFound for any other id. */
export async function getMonitor(ctx: AppContext, who: Caller, id: string): Promise<MonitorView> {
  const account = callerAccount(who, READ_MONITORS);
  const m = await ctx.store.monitors.get(account.id, id);
  if (m === null) throw new NotFound("monitor", id);
  return await viewOf(ctx, m);
}

/**
 * A monitor to store for `input`, checked: an unknown service or component is a 400 naming the
 * field (prefixed with `at`, e.g. `monitors.2.`), with close matches.
 */
export async function prepareMonitor(
  ctx: AppContext,
  account: Account,
  input: unknown,
  at = "",
): Promise<NewMonitor> {
  const m = parse(NewMonitorInput, input);
  const service = await ctx.store.catalog.service(m.service);
  if (service === null) {
    const close = await suggestSlugs(ctx, m.service);
    throw new InvalidRequest([{
      parameter: `${at}service`,
      message: `no service "${m.service}" in the catalog` +
        (close.length ? `; did you mean ${close.map((s) => `"${s}"`).join(", ")}?` : ""),
    }]);
  }
  const components = await checkComponents(ctx, service.slug, m.components, at);
  return {
    id: `mon_${randomToken(12)}`,
    accountId: account.id,
    serviceSlug: service.slug,
    components,
    label: m.label,
    slaTarget: m.slaTarget,
    paused: m.paused,
    createdAt: ctx.clock.now(),
  };
}

/** How many monitors `account` may keep. */
export function monitorLimit(ctx: AppContext, account: Account): number {
  return account.plan === "FREE"
    ? FREE_MONITOR_LIMIT
    : ctx.settings.maxMonitors ?? DEFAULT_MONITOR_LIMIT;
}

/** The refusal of a create past {@link monitorLimit}. */
export function overLimit(ctx: AppContext, account: Account): Error {
  const limit = monitorLimit(ctx, account);
  return account.plan === "FREE"
    ? new PlanRequired("PRO", `More than ${FREE_MONITOR_LIMIT} monitors`)
    : new Forbidden(`This account already has ${limit} monitors, the most this server allows`);
}

/** Creates a monitor of a catalog service; 400 naming the field for unknown slugs or components. */
export async function createMonitor(
  ctx: AppContext,
  who: Caller,
  input: unknown,
): Promise<MonitorView> {
  const account = callerAccount(who, WRITE_MONITORS);
  const doc = await prepareMonitor(ctx, account, input);
  const twin = await sameMonitor(ctx, doc);
  if (twin !== null) {
    throw new Conflict(
      `This account already monitors ${doc.serviceSlug} with ${
        doc.components.length ? "the same components" : "all its components"
      }: monitor ${twin.id}. Change that one (PATCH) or pick other components.`,
    );
  }
  const made = await ctx.store.monitors.create(doc, monitorLimit(ctx, account));
  if (made === "limit") throw overLimit(ctx, account);
  return await viewOf(ctx, made);
}

/** The account's monitor of the same service and the same components as `m` (any order). */
async function sameMonitor(ctx: AppContext, m: NewMonitor): Promise<MonitorRecord | null> {
  const wanted = [...m.components].sort().join("\u0000");
  for await (const x of everyRecord(ctx.store.monitors.list, m.accountId)) {
    if (x.serviceSlug === m.serviceSlug && [...x.components].sort().join("\u0000") === wanted) {
      return x;
    }
  }
  return null;
}

/** Changes a monitor (`ifVersion`: the version the caller saw, or null). */
export async function updateMonitor(
  ctx: AppContext,
  who: Caller,
  id: string,
  input: unknown,
  ifVersion: number | null,
): Promise<MonitorView> {
  const account = callerAccount(who, WRITE_MONITORS);
  const patch = parse(MonitorPatchInput, input);
  const current = await ctx.store.monitors.get(account.id, id);
  if (current === null) throw new NotFound("monitor", id);
  const components = patch.components === undefined
    ? undefined
    : await checkComponents(ctx, current.serviceSlug, patch.components);
  const updated = await ctx.store.monitors.update(
    account.id,
    id,
    { ...patch, ...(components === undefined ? {} : { components }) },
    ctx.clock.now(),
    ifVersion,
  );
  if (updated === null) throw new NotFound("monitor", id);
  if (updated === "conflict") throw new PreconditionFailed();
  return await viewOf(ctx, updated);
}

/** Deletes a monitor (`ifVersion` as {@link updateMonitor}). */
export async function deleteMonitor(
  ctx: AppContext,
  who: Caller,
  id: string,
  ifVersion: number | null,
): Promise<void> {
  const account = callerAccount(who, WRITE_MONITORS);
  const done = await ctx.store.monitors.delete(account.id, id, ifVersion);
  if (done === false) throw new NotFound("monitor", id);
  if (done === "conflict") throw new PreconditionFailed();
}

export type { MonitorView };
