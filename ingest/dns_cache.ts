/**
 * Remembers what vendor host names resolved to, for the poller. Pulses made each
 * calm vendor's requests five times as frequent, and every request looked its name up again:
 * hundreds of `getaddrinfo` calls a second against the self-hoster's resolver, each with its
 * CPU on a blocking thread and its round trip in front of the request. An answer is reused
 * for {@link DNS_CACHE_TTL_MS}, the TTL status-page hosts commonly publish, so a vendor's name
 * is looked up about once per stable interval again. The private-address guard still checks
 * every address of a cached answer before each request, and connections stay pinned to the
 * address it checked; a name that stops answering there is looked up again at once
 * ({@link DnsCache.forget}). Failed and empty lookups are not kept.
 * @module
 */

/** Looks a host name up: its addresses, as text. */
export type Resolve = (hostname: string) => Promise<readonly string[]>;

/** How long an answer is reused (ms): 5 minutes. */
export const DNS_CACHE_TTL_MS = 5 * 60_000;
/** Names kept at most; beyond it the oldest answers go first. */
export const DNS_CACHE_MAX = 20_000;

/** Options of {@link createDnsCache}. */
export interface DnsCacheOptions {
  /** The lookup behind the cache. */
  readonly resolve: Resolve;
  /** How long an answer is reused (ms); {@link DNS_CACHE_TTL_MS} by default. */
  readonly ttlMs?: number;
  /** Names kept at most; {@link DNS_CACHE_MAX} by default. */
  readonly maxEntries?: number;
  /** The clock (ms); `performance.now` by default. */
  readonly now?: () => number;
}

/** A cache of lookups. */
export interface DnsCache {
  /**
   * The addresses of `hostname`: a fresh cached answer, or one looked up now (one lookup shared
   * by every caller asking meanwhile). Callers only read the list.
   */
  resolve(hostname: string): Promise<readonly string[]>;
  /** Drops what is cached for `hostname` (a connection to its address failed). */
  forget(hostname: string): void;
  /** Names cached now. */
  readonly size: number;
}

/** A new, empty cache over `options.resolve`. */
export function createDnsCache(options: DnsCacheOptions): DnsCache {
  const ttl = options.ttlMs ?? DNS_CACHE_TTL_MS;
  const max = options.maxEntries ?? DNS_CACHE_MAX;
  const now = options.now ?? (() => performance.now());
  const answers = new Map<
    string,
    { readonly addresses: readonly string[]; readonly until: number }
  >();
  const asking = new Map<string, Promise<readonly string[]>>();

  const keep = (hostname: string, addresses: readonly string[]) => {
    answers.delete(hostname);
    const at = now();
    // Answers are kept in the order they were looked up, so the oldest (and the expired) lead.
    for (const [name, a] of answers) {
      if (answers.size < max && a.until > at) break;
      answers.delete(name);
    }
    answers.set(hostname, { addresses, until: at + ttl });
  };

  return {
    resolve(hostname) {
      const cached = answers.get(hostname);
      if (cached && cached.until > now()) return Promise.resolve(cached.addresses);
      const pending = asking.get(hostname);
      if (pending) return pending;
      const lookup = options.resolve(hostname).then(
        (addresses) => {
          asking.delete(hostname);
          if (addresses.length > 0) keep(hostname, addresses);
          return addresses;
        },
        (err) => {
          asking.delete(hostname);
          throw err;
        },
      );
      asking.set(hostname, lookup);
      return lookup;
    },
    forget(hostname) {
      answers.delete(hostname);
    },
    get size() {
      return answers.size;
    },
  };
}
