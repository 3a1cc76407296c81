/**
 * The vendor catalog (DESIGN §5): the built-in list, embedded through a JSON import, or a
 * user's file named by `STATUSD_CATALOG`, validated once with clear messages.
 * @module
 */
import { z } from "zod";
import {
  CATEGORIES,
  type Category,
  InvalidRequest,
  type Issue,
  type Platform,
  PLATFORMS,
  type Vendor,
} from "../domain/mod.ts";
import catalog from "./catalog.json" with { type: "json" };
import { PROBE_TARGETS_MAX } from "./probe_targets.ts";

/** What a slug (vendor or provider) looks like: lower-case words of `[a-z0-9]` joined by `-`. */
export const SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/** A host name as catalog `domains` hold it (lower case, no scheme, no port). */
const DOMAIN_PATTERN = /^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)+$/;

/** Source name used in messages for the catalog that ships inside statusd. */
export const BUILT_IN = "built-in";

/**
 * The one spelling of a status-page URL: absolute http(s), no credentials, no fragment, no
 * trailing slash (`https://status.example.com/` → `https://status.example.com`); the query is
 * kept. Returns null for anything else.
 */
export function normaliseStatusUrl(raw: string): string | null {
  if (!URL.canParse(raw.trim())) return null;
  const url = new URL(raw.trim());
  if (url.protocol !== "http:" && url.protocol !== "https:") return null;
  if (url.username || url.password || !url.hostname) return null;
  const path = url.pathname.replace(/(?<!\/)\/+$/, "");
  return `${url.origin}${path}${url.search}`;
}

const requiredString = (what: string) =>
  z.string({
    error: (issue) => issue.input === undefined ? "Required" : `Expected ${what}`,
  });

const slug = (what: string) =>
  requiredString("a string").regex(
    SLUG_PATTERN,
    `Expected a ${what} of lower-case a-z, 0-9 and single "-" (e.g. "google-cloud")`,
  );

/** One catalog entry as a file may hold it; optional fields get their defaults. */
export const CatalogEntrySchema = z.object({
  name: requiredString("a string").trim().min(1, "Must not be empty"),
  slug: slug("slug"),
  statusPageUrl: requiredString("a string").transform((raw, ctx) => {
    const url = normaliseStatusUrl(raw);
    if (url === null) {
      ctx.addIssue({ code: "custom", message: "Invalid URL (expected an absolute http(s) URL)" });
      return z.NEVER;
    }
    return url;
  }),
  platform: z.enum(PLATFORMS, {
    error: () => `Expected one of ${PLATFORMS.join(", ")}`,
  }).default("unknown"),
  category: z.enum(CATEGORIES, {
    error: () => `Expected one of ${CATEGORIES.join(", ")}`,
  }).default("other"),
  /** Slug of the owning company; defaults to the vendor's own slug. */
  provider: slug("provider slug").optional(),
  domains: z.array(
    requiredString("a string").transform((d) => d.trim().toLowerCase()).pipe(
      z.string().regex(DOMAIN_PATTERN, "Expected a host name such as example.com"),
    ),
    { error: () => "Expected an array of host names" },
  ).default([]),
  /**
   * The vendor's public endpoints statusd probes itself (early warning); derived from
   * `domains` when absent.
   */
  probes: z.array(
    z.url({ protocol: /^https?$/, error: "Expected an absolute http(s) URL" }).max(2048)
      .refine((u) => {
        const url = new URL(u);
        return url.username === "" && url.password === "";
      }, { error: "A probe URL carries no user or password (statusd probes anonymously)" }),
    { error: () => "Expected an array of http(s) URLs" },
  ).max(PROBE_TARGETS_MAX, `At most ${PROBE_TARGETS_MAX} probe URLs`)
    .refine((list) => new Set(list).size === list.length, {
      error: "The same probe URL is listed twice",
    }).optional(),
  /** Other names people type for the vendor (search finds it by them). */
  aliases: z.array(
    requiredString("a string").transform((a) => a.trim()).pipe(z.string().min(1).max(100)),
    { error: () => "Expected an array of names" },
  ).max(20, "At most 20 aliases").optional(),
  /** Not listed until a reading proves the page is the vendor's (see `Vendor.candidate`). */
  candidate: z.literal(true, { error: () => "Expected true, or no field" }).optional(),
}, { error: () => "Expected an object with name, slug and statusPageUrl" });

/** A catalog file: a JSON array of entries. */
export const CatalogFileSchema = z.array(z.unknown(), {
  error: () => "Expected a JSON array of vendor entries",
});

/** The catalog could not be used; `issues` name each entry and field at fault. */
export class CatalogError extends InvalidRequest {
  constructor(readonly source: string, issues: readonly Issue[]) {
    const shown = issues.slice(0, 5).map((i) =>
      i.parameter ? `${i.parameter}: ${i.message}` : i.message
    );
    const more = issues.length > 5 ? ` (and ${issues.length - 5} more problems)` : "";
    super(issues, `Cannot load catalog "${source}": ${shown.join("; ")}${more}`);
  }
}

function entryLabel(index: number, raw: unknown): string {
  if (typeof raw === "object" && raw !== null) {
    const r = raw as Record<string, unknown>;
    const id = typeof r.slug === "string" && r.slug ? r.slug : r.name;
    if (typeof id === "string" && id) return `entry ${index} (${JSON.stringify(id)})`;
  }
  return `entry ${index}`;
}

/**
 * Validates a parsed catalog (an array of entries) and fills defaults: `platform` "unknown",
 * `category` "other", `provider` = the slug, `domains` []. Throws {@link CatalogError} listing
 * every bad entry by its 0-based index, slug and field, and every duplicate slug.
 */
export function parseCatalog(json: unknown, source: string): Vendor[] {
  const file = CatalogFileSchema.safeParse(json);
  if (!file.success) {
    throw new CatalogError(source, [{ parameter: "", message: file.error.issues[0]!.message }]);
  }
  const issues: Issue[] = [];
  const vendors: Vendor[] = [];
  const firstIndex = new Map<string, number>();
  file.data.forEach((raw, index) => {
    const label = entryLabel(index, raw);
    const rawSlug = typeof raw === "object" && raw !== null
      ? (raw as Record<string, unknown>).slug
      : undefined;
    const earlier = typeof rawSlug === "string" ? firstIndex.get(rawSlug) : undefined;
    if (earlier !== undefined) {
      issues.push({ parameter: `${label}: slug`, message: `Duplicate of entry ${earlier}` });
    } else if (typeof rawSlug === "string") firstIndex.set(rawSlug, index);
    const entry = CatalogEntrySchema.safeParse(raw);
    if (!entry.success) {
      for (const issue of entry.error.issues) {
        const field = issue.path.map(String).join(".");
        issues.push({ parameter: field ? `${label}: ${field}` : label, message: issue.message });
      }
      return;
    }
    if (earlier !== undefined) return;
    const e = entry.data;
    vendors.push({
      name: e.name,
      slug: e.slug,
      statusPageUrl: e.statusPageUrl,
      platform: e.platform satisfies Platform,
      category: e.category satisfies Category,
      provider: e.provider ?? e.slug,
      domains: e.domains,
      ...(e.probes ? { probes: e.probes } : {}),
      ...(e.aliases?.length ? { aliases: e.aliases } : {}),
      ...(e.candidate ? { candidate: true as const } : {}),
    });
  });
  if (issues.length) throw new CatalogError(source, issues);
  return vendors;
}

/**
 * The vendors statusd watches: the built-in catalog (embedded at build time) when `path` is
 * absent, else the user's JSON file at `path` (`STATUSD_CATALOG`). Throws {@link CatalogError}.
 */
export function loadCatalog(path?: string): Vendor[] {
  if (path === undefined) return parseCatalog(catalog, BUILT_IN);
  let text: string;
  try {
    text = Deno.readTextFileSync(path);
  } catch (err) {
    const why = err instanceof Error ? err.message : String(err);
    throw new CatalogError(path, [{ parameter: "", message: `Cannot read the file: ${why}` }]);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    const why = err instanceof Error ? err.message : String(err);
    throw new CatalogError(path, [{ parameter: "", message: `Not valid JSON: ${why}` }]);
  }
  return parseCatalog(json, path);
}
