/**
 * Catalog search ranking: how well a vendor matches what someone typed, the way people name
 * vendors. One rule for every surface (REST `listServices`, MCP `list_services`, the `/services`
 * page, the suggestions of a not-found answer and the CLI's "did you mean").
 *
 * A vendor is found by its name, slug, aliases (former and common names), its company
 * (`provider`) and its domains; words may come in any order, with words missing or extra
 * ("Microsoft Azure" finds Azure, "Docker Hub" Docker), and a small typo is forgiven ("githb",
 * "stirpe"). Matches fall in tiers, best first; within a tier, the vendor whose words the text
 * covers best and which has fewest words the text does not name comes first, then shorter
 * names.
 * @module
 */
import { editDistance } from "./suggest.ts";

/** What search looks at in a catalog entry. */
export interface Searchable {
  readonly name: string;
  readonly slug: string;
  /** The vendor's own domains (`aws.amazon.com`); may be empty. */
  readonly domains: readonly string[];
  /** Common and former names (`AWS`, `Jira`); may be absent. */
  readonly aliases?: readonly string[];
  /** Slug of the owning company (`microsoft` for Azure); may be absent. */
  readonly provider?: string;
}

/** Match tiers, best first. */
export const SEARCH_TIERS = {
  /** The name, slug or an alias is the text (ignoring case, spaces and punctuation), or a domain is. */
  exact: 0,
  /**
   * The name, slug or an alias starts with the text, the text is the name's initials, the first
   * label of a domain, or a host under one (`api.stripe.com`).
   */
  prefix: 1,
  /** A word of the name or an alias, or a `-`-separated part of the slug, starts with the text. */
  wordStart: 2,
  /**
   * The text's words, in any order, name the vendor: at least half of them match its words
   * (name, aliases, company, domains), one of them a word of its name or an alias, and every
   * word with a digit among them.
   */
  words: 3,
  /** The name or slug contains the text somewhere else. */
  contains: 4,
  /** The text is the name, slug, an alias or one of the name's words with a small typo. */
  typo: 5,
} as const;

/** One of the {@link SEARCH_TIERS} values. */
export type SearchTier = (typeof SEARCH_TIERS)[keyof typeof SEARCH_TIERS];

/** How a query matched an entry: its tier and, within it, what orders it. */
export interface SearchMatch {
  readonly tier: SearchTier;
  /** How much of the text matched (higher first). */
  readonly strength: number;
  /** Words of the vendor's name the text does not name (fewer first). */
  readonly extra: number;
}

/** Words that say nothing about which vendor is meant. */
const NOISE = new Set([
  "the",
  "and",
  "inc",
  "ltd",
  "llc",
  "status",
  "page",
  "service",
  "services",
  "api",
]);

/** Lower case, letters and digits only (`"Digital Ocean"` → `"digitalocean"`). */
export function compact(text: string): string {
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

/** Typos forgiven in a text of this many letters: none up to 3, one up to 5, then two. */
function typosFor(length: number): number {
  return length <= 3 ? 0 : length <= 5 ? 1 : 2;
}

/** A host or URL's host, lower case, or null when `text` is not one. */
function hostOf(text: string): string | null {
  const t = text.trim().toLowerCase();
  const m = /^(?:[a-z][a-z0-9+.-]*:\/\/)?([a-z0-9-]+(?:\.[a-z0-9-]+)+)(?::\d+)?(?:[/?#].*)?$/.exec(
    t,
  );
  return m ? m[1]! : null;
}

/** How well one word of the text matches one of the vendor's words: 1, 0.7, 0.5 or 0. */
function wordMatch(q: string, word: string): number {
  if (q === word) return 1;
  if (q.length >= 3 && word.startsWith(q)) return 0.7;
  // A typo, never in the first letter: cheap to rule out, and people rarely miss it.
  if (q[0] !== word[0]) return 0;
  const typos = typosFor(Math.min(q.length, word.length));
  if (typos === 0) return 0;
  const d = editDistance(q, word, typos);
  return d <= typos ? 0.6 - 0.1 * d : 0;
}

/** What search reads of an entry, worked out once per entry. */
interface Prepared {
  readonly names: readonly string[];
  readonly namesC: readonly string[];
  readonly slugC: string;
  readonly slugParts: readonly string[];
  readonly domains: readonly string[];
  readonly domainLabels: readonly string[];
  readonly initials: string;
  readonly nameWords: readonly string[];
  /** Words of the name, the aliases and the slug. */
  readonly own: readonly string[];
  /** Words of the company and the domains' first labels. */
  readonly company: readonly string[];
}

const prepared = new WeakMap<Searchable, Prepared>();

/** `entry` as search reads it (cached per entry object). */
function prepare(entry: Searchable): Prepared {
  let p = prepared.get(entry);
  if (p) return p;
  const aliases = entry.aliases ?? [];
  const names = [entry.name, ...aliases].map((n) => n.toLowerCase());
  const domains = entry.domains.map((d) => d.toLowerCase());
  const domainLabels = domains.map((d) => d.split(".")[0]!);
  const nameWords = wordsOf(entry.name);
  const slugParts = entry.slug.split("-");
  p = {
    names,
    namesC: names.map(compact),
    slugC: compact(entry.slug),
    slugParts,
    domains,
    domainLabels,
    initials: initialsOf(entry.name),
    nameWords,
    own: [...new Set([...nameWords, ...aliases.flatMap(wordsOf), ...slugParts])],
    company: [...new Set([...(entry.provider ? entry.provider.split("-") : []), ...domainLabels])],
  };
  prepared.set(entry, p);
  return p;
}

/** What search reads of the text, worked out once per query. */
interface Query {
  readonly q: string;
  readonly qc: string;
  readonly host: string | null;
  readonly words: readonly string[];
}

function queryOf(query: string): Query | null {
  const q = query.trim().toLowerCase();
  if (q === "") return null;
  return { q, qc: compact(q), host: hostOf(q), words: wordsOf(q).filter((w) => !NOISE.has(w)) };
}

/**
 * How `query` matches `entry`, or null when it does not. Case, spaces and punctuation are
 * ignored where they would only get in the way (`"digital ocean"` finds DigitalOcean exactly).
 */
export function searchMatch(query: string, entry: Searchable): SearchMatch | null {
  const parsed = queryOf(query);
  return parsed === null ? null : matchOf(parsed, entry);
}

function matchOf(query: Query, entry: Searchable): SearchMatch | null {
  const { q, qc, host } = query;
  const p = prepare(entry);
  const hit = (tier: SearchTier): SearchMatch => ({ tier, strength: 1, extra: 0 });
  if (
    p.names.includes(q) || entry.slug === q ||
    (qc !== "" && (p.namesC.includes(qc) || p.slugC === qc)) ||
    p.domains.includes(q) || (host !== null && p.domains.includes(host))
  ) return hit(SEARCH_TIERS.exact);
  if (
    p.names.some((n) => n.startsWith(q)) || entry.slug.startsWith(q) ||
    (qc !== "" && p.namesC.some((n) => n.startsWith(qc))) ||
    (qc.length >= 2 && p.initials === qc) ||
    p.domainLabels.some((l) => l === q || (qc.length >= 3 && compact(l) === qc)) ||
    (host !== null && p.domains.some((d) => host.endsWith(`.${d}`)))
  ) return hit(SEARCH_TIERS.prefix);
  if (
    (qc !== "" && p.own.some((w) => w.startsWith(qc))) ||
    p.slugParts.some((part) => part.startsWith(q))
  ) return hit(SEARCH_TIERS.wordStart);
  const byWords = wordsMatch(query.words, p);
  if (byWords) return byWords;
  if (
    p.names[0]!.includes(q) || entry.slug.includes(q) ||
    (qc !== "" && p.namesC.some((n) => n.includes(qc)))
  ) {
    return hit(SEARCH_TIERS.contains);
  }
  // Numbers are not misspelt: "vendor 0" is not "Vendor 10" with a typo.
  const typos = /\d/.test(qc) ? 0 : typosFor(qc.length);
  if (typos > 0) {
    let best = typos + 1;
    for (const t of [...p.namesC, p.slugC, ...p.nameWords]) {
      if (t.length >= 4 && t[0] === qc[0]) best = Math.min(best, editDistance(qc, t, typos));
    }
    if (best <= typos) return { tier: SEARCH_TIERS.typo, strength: 1 - best / 4, extra: 0 };
  }
  return null;
}

/** The words tier: the text's words against the vendor's, in any order. */
function wordsMatch(queryWords: readonly string[], p: Prepared): SearchMatch | null {
  if (queryWords.length === 0) return null;
  let strength = 0;
  let ownHit = false;
  let matched = 0;
  const named = new Set<string>();
  for (const w of queryWords) {
    let best = 0;
    for (const o of p.own) {
      const m = wordMatch(w, o);
      if (m > 0) {
        named.add(o);
        // A typo alone does not make the words tier (the typo tier weighs typos).
        if (m >= 0.7) ownHit = true;
        best = Math.max(best, m);
      }
    }
    for (const c of p.company) best = Math.max(best, wordMatch(w, c) * 0.9);
    if (best > 0) matched++;
    strength += best;
  }
  if (!ownHit || matched * 2 < queryWords.length) return null;
  // A number names one thing (a region, a version, "365"): it may not be the word left out.
  if (
    queryWords.some((w) =>
      /\d/.test(w) && ![...p.own, ...p.company].some((o) => wordMatch(w, o) > 0)
    )
  ) {
    return null;
  }
  const extra = p.nameWords.filter((w) => !named.has(w) && !NOISE.has(w)).length;
  return { tier: SEARCH_TIERS.words, strength: strength / queryWords.length, extra };
}

/** The tier `entry` matches `query` at, or null when it does not match. */
export function searchTier(query: string, entry: Searchable): SearchTier | null {
  return searchMatch(query, entry)?.tier ?? null;
}

/**
 * The entries that match `query`, best first: by tier; within one, the best-covered first,
 * then those with fewer words the text does not name, then shorter names, then by name and
 * slug. Entries that do not match are left out.
 */
export function rankSearch<T extends Searchable>(query: string, entries: readonly T[]): T[] {
  const parsed = queryOf(query);
  if (parsed === null) return [];
  const scored: { entry: T; match: SearchMatch; name: string }[] = [];
  for (const entry of entries) {
    const match = matchOf(parsed, entry);
    if (match !== null) scored.push({ entry, match, name: entry.name.toLowerCase() });
  }
  scored.sort((a, b) =>
    a.match.tier - b.match.tier || b.match.strength - a.match.strength ||
    a.match.extra - b.match.extra || a.name.length - b.name.length ||
    (a.name < b.name ? -1 : a.name > b.name ? 1 : 0) ||
    (a.entry.slug < b.entry.slug ? -1 : a.entry.slug > b.entry.slug ? 1 : 0)
  );
  return scored.map((s) => s.entry);
}
