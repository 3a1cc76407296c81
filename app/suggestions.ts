/**
 * Monitor suggestions: which catalog services a team's own files imply — package
 * manifests and lock files, Terraform lock and configuration files, domain lists — each with the
 * reasons, and accepting a choice of them as monitors in one call, all or nothing.
 * @module
 */
import { z } from "zod";
import { componentInRegion, InvalidRequest, type Issue, servicesOfPackage } from "../domain/mod.ts";
import {
  type Ecosystem,
  type FileDependencies,
  hostOf,
  isFileProblem,
  MAX_FILE_BYTES,
} from "../lib/mod.ts";
import type { AppContext } from "./context.ts";
import { everyRecord } from "./_every.ts";
import { type Caller, callerAccount } from "./policy.ts";
import {
  monitorLimit,
  type MonitorView,
  NewMonitorInput,
  overLimit,
  parse,
  prepareMonitor,
  READ_MONITORS,
  viewOf,
  WRITE_MONITORS,
} from "./monitors.ts";

/** What a suggestion request takes. */
export const SuggestionsInput = z.object({
  files: z.array(
    z.object({
      name: z.string().trim().min(1).max(255),
      content: z.string().max(MAX_FILE_BYTES),
    }).strict(),
  ).max(20).default([]),
  domains: z.array(z.string().max(300)).max(1_000).default([]),
}).strict();

/** What an accept takes: the monitors to create (as `createMonitor` takes them). */
export const AcceptSuggestionsInput = z.object({
  monitors: z.array(NewMonitorInput).min(1).max(100),
}).strict();

/** One suggested service. */
export interface Suggestion {
  readonly service: string;
  readonly serviceName: string;
  /** Components the files point to (a named region); empty: the whole service. */
  readonly components: readonly string[];
  /** Why, e.g. "npm package stripe (package.json)". */
  readonly reasons: readonly string[];
  /** The account's monitor of this service already, or null. */
  readonly monitorId: string | null;
}

/** What one file gave. */
export interface FileSummary {
  readonly name: string;
  readonly packages: number;
  readonly regions: readonly string[];
  readonly domains: number;
  /** How many services it pointed to. */
  readonly services: number;
}

/** The answer of {@link suggestMonitors}. */
export interface SuggestionReport {
  readonly suggestions: readonly Suggestion[];
  readonly files: readonly FileSummary[];
}

const MAX_REASONS = 5;
/** Services whose status pages name components by cloud region. */
const REGIONAL = new Set(["amazon-web-services", "google-cloud", "azure"]);

const WORDS: Readonly<Record<Ecosystem, string>> = {
  npm: "npm package",
  pypi: "PyPI package",
  go: "Go module",
  terraform: "Terraform provider",
};

interface Found {
  reasons: string[];
  regions: Set<string>;
}

/** The catalog services `input` (files and domains) implies, with reasons. */
export async function suggestMonitors(
  ctx: AppContext,
  who: Caller,
  input: unknown,
): Promise<SuggestionReport> {
  const account = callerAccount(who, READ_MONITORS);
  const req = parse(SuggestionsInput, input);
  if (req.files.length === 0 && req.domains.length === 0) {
    throw new InvalidRequest([{ parameter: "body", message: "give at least one file or domain" }]);
  }
  const read: { name: string; deps: FileDependencies }[] = [];
  const issues: Issue[] = [];
  const results = req.files.length ? await ctx.dependencyReader.read(req.files) : [];
  results.forEach((deps, i) => {
    const name = req.files[i]!.name;
    if (isFileProblem(deps)) {
      issues.push({ parameter: `files.${i}`, message: `${name}: ${deps.problem}` });
    } else read.push({ name, deps });
  });
  const badDomains = req.domains.flatMap((d, i) =>
    hostOf(d) === null ? [{ parameter: `domains.${i}`, message: `"${d}" is not a host name` }] : []
  );
  issues.push(...badDomains);
  if (issues.length) throw new InvalidRequest(issues);
  if (req.domains.length) {
    read.push({
      name: "domains",
      deps: { packages: [], regions: [], domains: req.domains.map((d) => hostOf(d)!) },
    });
  }

  const found = new Map<string, Found>();
  const add = (slug: string, reason: string, regions: readonly string[] = []) => {
    const f = found.get(slug) ?? { reasons: [], regions: new Set<string>() };
    if (!f.reasons.includes(reason)) f.reasons.push(reason);
    for (const r of regions) f.regions.add(r);
    found.set(slug, f);
  };
  const byDomain = await domainIndex(ctx);
  const summaries: FileSummary[] = [];
  for (const { name, deps } of read) {
    const touched = new Set<string>();
    for (const p of deps.packages) {
      for (
        const slug of ctx.settings.signals
          ? servicesOfPackage(ctx.settings.signals, p.ecosystem, p.name)
          : []
      ) {
        const regions = p.ecosystem === "terraform" && REGIONAL.has(slug) ? deps.regions : [];
        const where = regions.length ? `, region ${regions.join(", ")}` : "";
        add(slug, `${WORDS[p.ecosystem]} ${p.name}${where} (${name})`, regions);
        touched.add(slug);
      }
    }
    for (const host of deps.domains) {
      for (const slug of servicesOfHost(byDomain, host)) {
        add(slug, `domain ${host}${name === "domains" ? "" : ` (${name})`}`);
        touched.add(slug);
      }
    }
    summaries.push({
      name,
      packages: deps.packages.length,
      regions: deps.regions,
      domains: deps.domains.length,
      services: touched.size,
    });
  }

  const monitored = await monitoredServices(ctx, account.id);
  const names = new Map((await ctx.store.catalog.names()).map((n) => [n.slug, n.name]));
  const suggestions: Suggestion[] = [];
  for (const [slug, f] of found) {
    const serviceName = names.get(slug);
    if (serviceName === undefined) continue;
    suggestions.push({
      service: slug,
      serviceName,
      components: f.regions.size ? await regionComponents(ctx, slug, [...f.regions]) : [],
      reasons: f.reasons.length > MAX_REASONS
        ? [...f.reasons.slice(0, MAX_REASONS), `and ${f.reasons.length - MAX_REASONS} more`]
        : f.reasons,
      monitorId: monitored.get(slug) ?? null,
    });
  }
  suggestions.sort((a, b) =>
    b.reasons.length - a.reasons.length ||
    a.serviceName.localeCompare(b.serviceName, "en", { sensitivity: "base" })
  );
  return { suggestions, files: summaries };
}

/**
 * Creates every monitor in `input` or none: each is checked first (a bad one is a 400 naming
 * `monitors.<i>.<field>`), then the plan's limit for all of them together, then they are stored;
 * if storing one fails, those stored before it are removed again.
 */
export async function acceptSuggestions(
  ctx: AppContext,
  who: Caller,
  input: unknown,
): Promise<MonitorView[]> {
  const account = callerAccount(who, WRITE_MONITORS);
  const req = parse(AcceptSuggestionsInput, input);
  const docs = [];
  const issues: Issue[] = [];
  for (const [i, m] of req.monitors.entries()) {
    try {
      docs.push(await prepareMonitor(ctx, account, m, `monitors.${i}.`));
    } catch (e) {
      if (e instanceof InvalidRequest) issues.push(...e.issues);
      else throw e;
    }
  }
  if (issues.length) throw new InvalidRequest(issues);
  const limit = monitorLimit(ctx, account);
  const { total } = await ctx.store.monitors.list(account.id, { page: 0, limit: 1 });
  if (total + docs.length > limit) throw overLimit(ctx, account);
  const made = [];
  for (const doc of docs) {
    const r = await ctx.store.monitors.create(doc, limit);
    if (r === "limit") {
      for (const m of made) await ctx.store.monitors.delete(account.id, m.id, null);
      throw overLimit(ctx, account);
    }
    made.push(r);
  }
  return await Promise.all(made.map((m) => viewOf(ctx, m)));
}

/** Catalog domains → service slugs. */
async function domainIndex(ctx: AppContext): Promise<Map<string, string[]>> {
  const index = new Map<string, string[]>();
  for (const c of await ctx.store.catalog.candidates({})) {
    for (const d of c.domains) index.set(d, [...index.get(d) ?? [], c.slug]);
  }
  return index;
}

/** Services whose domains hold `host` or one of its parents (`api.stripe.com` → `stripe.com`). */
function servicesOfHost(index: Map<string, string[]>, host: string): readonly string[] {
  const labels = host.split(".");
  for (let i = 0; i <= labels.length - 2; i++) {
    const slugs = index.get(labels.slice(i).join("."));
    if (slugs) return slugs;
  }
  return [];
}

async function monitoredServices(ctx: AppContext, accountId: string) {
  const out = new Map<string, string>();
  for await (const m of everyRecord(ctx.store.monitors.list, accountId)) {
    if (!out.has(m.serviceSlug)) out.set(m.serviceSlug, m.id);
  }
  return out;
}

async function regionComponents(ctx: AppContext, slug: string, regions: readonly string[]) {
  const found = await ctx.store.catalog.detail(slug, { start: 0, end: 0 }, ctx.clock.now());
  return (found?.components ?? []).map((c) => c.name).filter((n) =>
    regions.some((r) => componentInRegion(n, r))
  );
}
