/**
 * Catalog search ranking: how well a vendor matches what someone typed. One rule for every
 * surface (REST `listServices`, MCP `list_services`, the `/services` page).
 * @module
 */

/** What search looks at in a catalog entry. */
export interface Searchable {
  readonly name: string;
  readonly slug: string;
  /** The vendor's own domains (`aws.amazon.com`); may be empty. */
  readonly domains: readonly string[];
}

/** Match tiers, best first. */
export const SEARCH_TIERS = {
  /** The name or slug is the text (ignoring case, spaces and punctuation). */
  exact: 0,
  /** The name or slug starts with the text, the text is the name's initials, or a domain's first label. */
  prefix: 1,
  /** A word of the name, or a `-`-separated part of the slug, starts with the text. */
  wordStart: 2,
  /** The name or slug contains the text somewhere else. */
  contains: 3,
} as const;

/** One of the {@link SEARCH_TIERS} values. */
export type SearchTier = (typeof SEARCH_TIERS)[keyof typeof SEARCH_TIERS];

/** Lower case, letters and digits only (`"Digital Ocean"` → `"digitalocean"`). */
function compact(text: string): string {
  return text.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, "");
}

/** Words of a name: split on anything but letters and digits, and where camelCase turns. */
function wordsOf(name: string): string[] {
  return name.replace(/(\p{Ll})(\p{Lu})/gu, "$1 $2").toLowerCase().split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w !== "");
}

/** Initials of a name of two words or more (`"Amazon Web Services"` → `"aws"`), else "". */
function initialsOf(name: string): string {
  const words = name.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter((w) => w !== "");
  return words.length >= 2 ? words.map((w) => w[0]).join("") : "";
}

/**
 * The tier `entry` matches `query` at, or null when it does not match. Case, spaces and
 * punctuation are ignored where they would only get in the way (`"digital ocean"` finds
 * DigitalOcean at `exact`).
 * @example searchTier("git", { name: "GitHub", slug: "github", domains: [] }) // → 1
 */
export function searchTier(query: string, entry: Searchable): SearchTier | null {
  const q = query.trim().toLowerCase();
  if (q === "") return null;
  const qc = compact(q);
  const name = entry.name.toLowerCase();
  const nameC = compact(entry.name);
  const slugC = compact(entry.slug);
  if (name === q || entry.slug === q || (qc !== "" && (nameC === qc || slugC === qc))) {
    return SEARCH_TIERS.exact;
  }
  if (
    name.startsWith(q) || entry.slug.startsWith(q) || (qc !== "" && nameC.startsWith(qc)) ||
    (qc !== "" && initialsOf(entry.name) === qc) ||
    entry.domains.some((d) => d.toLowerCase() === q || d.toLowerCase().split(".")[0] === q)
  ) return SEARCH_TIERS.prefix;
  if (
    (qc !== "" && wordsOf(entry.name).some((w) => w.startsWith(qc))) ||
    entry.slug.split("-").some((part) => part.startsWith(q))
  ) return SEARCH_TIERS.wordStart;
  if (name.includes(q) || entry.slug.includes(q) || (qc !== "" && nameC.includes(qc))) {
    return SEARCH_TIERS.contains;
  }
  return null;
}

/**
 * The entries that match `query`, best first: by tier, then shorter names first (the text
 * covers more of them), then by name and slug. Entries that do not match are left out.
 */
export function rankSearch<T extends Searchable>(query: string, entries: readonly T[]): T[] {
  const scored: { entry: T; tier: number; name: string }[] = [];
  for (const entry of entries) {
    const tier = searchTier(query, entry);
    if (tier !== null) scored.push({ entry, tier, name: entry.name.toLowerCase() });
  }
  scored.sort((a, b) =>
    a.tier - b.tier || a.name.length - b.name.length ||
    (a.name < b.name ? -1 : a.name > b.name ? 1 : 0) ||
    (a.entry.slug < b.entry.slug ? -1 : a.entry.slug > b.entry.slug ? 1 : 0)
  );
  return scored.map((s) => s.entry);
}
