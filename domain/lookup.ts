/**
 * Which vendor is this host, URL or error line (#47): the hosts a text names, how a host belongs
 * to a vendor (one of its domains, a host under one, what statusd probes of it, its status
 * page), and which of the vendor's components the host names (a region, a service). Pure.
 * @module
 */

/** At most this many hosts are read from one text. */
export const LOOKUP_HOSTS_MAX = 10;

/** A file name's ending, not a top-level domain: "index.html", "app.js". */
const FILE_ENDINGS = new Set([
  "html",
  "htm",
  "js",
  "ts",
  "json",
  "xml",
  "txt",
  "md",
  "css",
  "png",
  "jpg",
  "jpeg",
  "gif",
  "svg",
  "py",
  "go",
  "rb",
  "php",
  "log",
  "yml",
  "yaml",
  "lock",
]);

/** A DNS label: 1 to 63 letters, digits and inner dashes. */
function isLabel(label: string): boolean {
  if (label.length === 0 || label.length > 63) return false;
  if (label.startsWith("-") || label.endsWith("-")) return false;
  for (const ch of label) {
    if (!((ch >= "a" && ch <= "z") || (ch >= "0" && ch <= "9") || ch === "-")) return false;
  }
  return true;
}

/** `token` as a host name, or null (read without a regular expression: no backtracking). */
function asHost(token: string): string | null {
  let from = 0, to = token.length;
  while (from < to && token[from] === ".") from++;
  while (to > from && token[to - 1] === ".") to--;
  const host = token.slice(from, to).toLowerCase();
  const labels = host.split(".");
  if (labels.length < 2 || host.length > 253 || !labels.every(isLabel)) return null;
  const tld = labels[labels.length - 1]!;
  // A top-level domain starts with a letter; a file name is not a host.
  if (!(tld[0]! >= "a" && tld[0]! <= "z") || FILE_ENDINGS.has(tld)) return null;
  return host;
}

/**
 * The host names `text` names, lower case, in order, each once: a URL's host, a bare host
 * (`api.stripe.com`, `api.stripe.com:443`), or hosts inside an error line (`getaddrinfo
 * ENOTFOUND registry.npmjs.org`). File names (`index.html`) and IP addresses are not hosts.
 */
export function hostsIn(text: string): string[] {
  const out: string[] = [];
  // Tokens are the runs of what a host may hold; anything else (spaces, `:`, `/`) ends one.
  for (const token of text.slice(0, 2_000).split(/[^A-Za-z0-9.-]/)) {
    const host = asHost(token);
    if (host === null || out.includes(host)) continue;
    out.push(host);
    if (out.length === LOOKUP_HOSTS_MAX) break;
  }
  return out;
}

/** What lookup reads of a vendor. */
export interface LookupVendor {
  readonly name: string;
  readonly domains: readonly string[];
  readonly statusPageUrl: string;
  /** URLs statusd probes of it, if the catalog names them. */
  readonly probes?: readonly string[] | null;
}

/** How a host belongs to a vendor, in words, and how surely (higher first). */
export interface HostMatch {
  readonly why: string;
  readonly score: number;
  /** The vendor's domain (or host) it matched, to tell the host's own labels apart. */
  readonly matched: string;
}

function hostOf(url: string): string | null {
  try {
    return new URL(url).hostname.toLowerCase();
  } catch {
    return null;
  }
}

/** How `host` belongs to `vendor`, or null when it does not. The most specific match wins. */
export function matchHost(host: string, vendor: LookupVendor): HostMatch | null {
  let best: HostMatch | null = null;
  const consider = (m: HostMatch) => {
    if (best === null || m.score > best.score) best = m;
  };
  for (const domain of vendor.domains) {
    const d = domain.toLowerCase();
    if (host === d) {
      consider({ why: `${host} is a domain of ${vendor.name}`, score: 200 + d.length, matched: d });
    } else if (host.endsWith(`.${d}`)) {
      consider({
        why: `${host} is under ${d}, a domain of ${vendor.name}`,
        score: 100 + d.length,
        matched: d,
      });
    }
  }
  for (const probe of vendor.probes ?? []) {
    const p = hostOf(probe);
    if (p !== null && (host === p || host.endsWith(`.${p}`))) {
      consider({ why: `statusd probes ${p} for ${vendor.name}`, score: 90 + p.length, matched: p });
    }
  }
  const page = hostOf(vendor.statusPageUrl);
  if (page !== null && host === page) {
    consider({ why: `${host} is the status page of ${vendor.name}`, score: 80, matched: page });
  }
  return best;
}

/** A component's id and name as lookup reads them, and their words. */
function componentText(c: { readonly id: string; readonly name: string }) {
  const text = `${c.id} ${c.name}`.toLowerCase();
  return { text, words: new Set(text.split(/[^a-z0-9]+/).filter((w) => w !== "")) };
}

/**
 * The component of the vendor `host` names, when the vendor names its components by region or
 * service as hosts do (`s3.eu-west-1.amazonaws.com` → the S3 component of eu-west-1): the one
 * whose id and name hold the most of the host's own labels (those left of the vendor's domain),
 * a region label counting most; null when none holds any.
 */
export function componentFor(
  host: string,
  matched: string,
  components: readonly { readonly id: string; readonly name: string }[],
): { readonly id: string; readonly name: string } | null {
  const own = host === matched ? [] : host.slice(0, -(matched.length + 1)).split(".");
  const labels = own.filter((l) => l !== "" && !/^(www|api|status|app|cdn)$/.test(l));
  if (labels.length === 0) return null;
  let best: { c: { id: string; name: string }; score: number } | null = null;
  for (const c of components) {
    const { text, words } = componentText(c);
    let score = 0;
    for (const l of labels) {
      // A label with a dash (eu-west-1) is found as written; a plain one (s3) as a word.
      if (l.includes("-") ? !text.includes(l) : !words.has(l)) continue;
      // A region (eu-west-1, us-central1) says more than a service name.
      score += /\d/.test(l) && l.includes("-") ? 3 : 1;
    }
    if (score > 0 && (best === null || score > best.score)) best = { c, score };
  }
  return best?.c ?? null;
}
