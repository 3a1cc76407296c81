/**
 * Which catalog services a package, a Terraform provider or a cloud region points to (issue
 * #12): the catalog's signals (`ingest/catalog_signals.json`, public facts with their sources in
 * `ingest/CATALOG_SOURCES.md`) indexed for lookups, and the regions of the three big clouds with
 * the words their status pages use for them.
 * @module
 */
import type { Ecosystem } from "../lib/dependency_files.ts";

/** The signals of one service: package names by ecosystem; a trailing `*` is a prefix. */
export type ServiceSignals = Partial<Record<Ecosystem, readonly string[]>>;

/** Signals indexed for lookups. */
export interface PackageSignals {
  /** Exact names → service slugs. */
  readonly exact: ReadonlyMap<string, readonly string[]>;
  /** Prefixes (`npm:@aws-sdk/`, `go:github.com/aws/aws-sdk-go`) → service slugs. */
  readonly prefixes: readonly { readonly prefix: string; readonly slugs: readonly string[] }[];
  /** How many services have signals. */
  readonly services: number;
}

const key = (ecosystem: Ecosystem, name: string) => `${ecosystem}:${name.toLowerCase()}`;

/** Indexes the signals of every service (slug → signals). */
export function indexSignals(bySlug: Readonly<Record<string, ServiceSignals>>): PackageSignals {
  const exact = new Map<string, string[]>();
  const prefixes = new Map<string, string[]>();
  for (const [slug, signals] of Object.entries(bySlug)) {
    for (const [ecosystem, names] of Object.entries(signals) as [Ecosystem, string[]][]) {
      for (const name of names) {
        // Go modules match at a path boundary (`…/stripe-go/v76`), like a prefix.
        const isPrefix = name.endsWith("*") || ecosystem === "go";
        const k = key(ecosystem, name.replace(/\*$/, ""));
        const into = isPrefix ? prefixes : exact;
        into.set(k, [...new Set([...into.get(k) ?? [], slug])]);
      }
    }
  }
  return {
    exact,
    prefixes: [...prefixes].map(([prefix, slugs]) => ({ prefix, slugs })),
    services: Object.keys(bySlug).length,
  };
}

/** The services a package points to (none: an empty list). */
export function servicesOfPackage(
  signals: PackageSignals,
  ecosystem: Ecosystem,
  name: string,
): readonly string[] {
  const k = key(ecosystem, name);
  const found = new Set(signals.exact.get(k) ?? []);
  for (const p of signals.prefixes) {
    if (!k.startsWith(p.prefix)) continue;
    // a Go module path continues with "/" (`github.com/aws/aws-sdk-go-v2` is its own entry)
    if (ecosystem === "go" && k.length > p.prefix.length && k[p.prefix.length] !== "/") continue;
    for (const s of p.slugs) found.add(s);
  }
  return [...found];
}

/** The words a status page may use for a region, by region code. */
const REGION_WORDS: Readonly<Record<string, readonly string[]>> = {
  // AWS (https://docs.aws.amazon.com/global-infrastructure/latest/regions/aws-regions.html)
  "us-east-1": ["N. Virginia", "Northern Virginia"],
  "us-east-2": ["Ohio"],
  "us-west-1": ["N. California", "Northern California"],
  "us-west-2": ["Oregon"],
  "ca-central-1": ["Canada", "Montreal"],
  "eu-west-1": ["Ireland"],
  "eu-west-2": ["London"],
  "eu-west-3": ["Paris"],
  "eu-central-1": ["Frankfurt"],
  "eu-central-2": ["Zurich"],
  "eu-north-1": ["Stockholm"],
  "eu-south-1": ["Milan"],
  "eu-south-2": ["Spain"],
  "ap-south-1": ["Mumbai"],
  "ap-southeast-1": ["Singapore"],
  "ap-southeast-2": ["Sydney"],
  "ap-northeast-1": ["Tokyo"],
  "ap-northeast-2": ["Seoul"],
  "ap-northeast-3": ["Osaka"],
  "ap-east-1": ["Hong Kong"],
  "sa-east-1": ["Sao Paulo", "São Paulo"],
  "me-south-1": ["Bahrain"],
  "me-central-1": ["UAE"],
  "af-south-1": ["Cape Town"],
  // Google Cloud (https://cloud.google.com/about/locations)
  "us-central1": ["Iowa"],
  "us-east1": ["South Carolina"],
  "us-east4": ["Northern Virginia"],
  "us-west1": ["Oregon"],
  "us-west2": ["Los Angeles"],
  "europe-west1": ["Belgium"],
  "europe-west2": ["London"],
  "europe-west3": ["Frankfurt"],
  "europe-west4": ["Netherlands"],
  "europe-west6": ["Zurich"],
  "europe-north1": ["Finland"],
  "asia-east1": ["Taiwan"],
  "asia-northeast1": ["Tokyo"],
  "asia-southeast1": ["Singapore"],
  "australia-southeast1": ["Sydney"],
  // Azure (https://learn.microsoft.com/azure/reliability/regions-list)
  "eastus": ["East US"],
  "eastus2": ["East US 2"],
  "westus": ["West US"],
  "westus2": ["West US 2"],
  "westus3": ["West US 3"],
  "centralus": ["Central US"],
  "northeurope": ["North Europe"],
  "westeurope": ["West Europe"],
  "uksouth": ["UK South"],
  "ukwest": ["UK West"],
  "francecentral": ["France Central"],
  "germanywestcentral": ["Germany West Central"],
  "swedencentral": ["Sweden Central"],
  "southeastasia": ["Southeast Asia"],
  "eastasia": ["East Asia"],
  "japaneast": ["Japan East"],
  "australiaeast": ["Australia East"],
  "canadacentral": ["Canada Central"],
  "brazilsouth": ["Brazil South"],
  "centralindia": ["Central India"],
};

const fold = (s: string) => s.normalize("NFD").replace(/[\u0300-\u036f]/g, "").toLowerCase();

const isCodeChar = (c: string | undefined) => c !== undefined && /[a-z0-9-]/.test(c);

/** True when `word` appears in `text` with no letter, digit or hyphen right before or after. */
function containsWord(text: string, word: string): boolean {
  for (let at = text.indexOf(word); at >= 0; at = text.indexOf(word, at + 1)) {
    if (!isCodeChar(text[at - 1]) && !isCodeChar(text[at + word.length])) return true;
  }
  return false;
}

/** True when a component's name is about `region` (its code or the words pages use for it). */
export function componentInRegion(componentName: string, region: string): boolean {
  const name = fold(componentName);
  const code = region.toLowerCase();
  if (code && containsWord(name, code)) return true;
  return (REGION_WORDS[code] ?? []).some((w) => {
    const word = fold(w);
    const at = name.indexOf(word);
    if (at < 0) return false;
    const after = name[at + word.length];
    // "West US" must not match "West US 2"
    return after === undefined || !/[a-z0-9]/.test(after) &&
        !/^ \d/.test(name.slice(at + word.length));
  });
}
