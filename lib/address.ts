/**
 * IP addresses and ranges: strict parsing of literals and CIDRs, the non-public ranges statusd
 * refuses to fetch from (IANA special-purpose registries), and the self-hoster's exceptions.
 * Pure: nothing here resolves a name or opens a socket.
 * @module
 */

/** An IPv4 (4 bytes) or IPv6 (16 bytes) address. */
export interface IpAddress {
  readonly version: 4 | 6;
  readonly bytes: Uint8Array;
}

/** An address block: the first `prefix` bits of `bytes` fixed. */
export interface IpRange extends IpAddress {
  readonly prefix: number;
}

/** Why an address is not public; `null` from {@link nonPublicKind} means it is public. */
export type NonPublicKind =
  | "unspecified"
  | "loopback"
  | "private"
  | "link-local"
  | "cgnat"
  | "multicast"
  | "reserved";

/**
 * Loopback, private and other non-public addresses a vendor fetch may still reach: none
 * (`off`, the default), all of them (`on`), or only those in `ranges`.
 */
export interface AddressAllowance {
  readonly all: boolean;
  readonly ranges: readonly IpRange[];
}

/** The default: every non-public address is refused. */
export const NO_PRIVATE_ADDRESSES: AddressAllowance = Object.freeze({ all: false, ranges: [] });

const V4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/;

function parseV4(text: string): Uint8Array | null {
  const m = V4.exec(text);
  if (!m) return null;
  const parts = m.slice(1).map((p) => (p.length > 1 && p.startsWith("0") ? NaN : Number(p)));
  if (parts.some((n) => !(n >= 0 && n <= 255))) return null;
  return Uint8Array.from(parts);
}

function parseV6(text: string): Uint8Array | null {
  let t = text;
  if (t.includes(".")) {
    // An embedded IPv4 tail (`::ffff:127.0.0.1`) becomes its two hex groups.
    const at = t.lastIndexOf(":");
    const v4 = parseV4(t.slice(at + 1));
    if (!v4) return null;
    const hex = (hi: number, lo: number) => ((hi << 8) | lo).toString(16);
    t = `${t.slice(0, at + 1)}${hex(v4[0]!, v4[1]!)}:${hex(v4[2]!, v4[3]!)}`;
  }
  const halves = t.split("::");
  if (halves.length > 2) return null;
  const groups = (s: string) => (s === "" ? [] : s.split(":"));
  const head = groups(halves[0]!);
  const rest = halves.length === 2 ? groups(halves[1]!) : [];
  const fixed = head.length + rest.length;
  if ([...head, ...rest].some((g) => !/^[0-9a-f]{1,4}$/i.test(g))) return null;
  if (halves.length === 1 ? fixed !== 8 : fixed > 7) return null;
  const words = [
    ...head.map((g) => parseInt(g, 16)),
    ...Array<number>(8 - fixed).fill(0),
    ...rest.map((g) => parseInt(g, 16)),
  ];
  const bytes = new Uint8Array(16);
  words.forEach((w, i) => {
    bytes[2 * i] = w >> 8;
    bytes[2 * i + 1] = w & 0xff;
  });
  return bytes;
}

/** The host of `url` as it is checked and looked up: no brackets, no final dot, lower case. */
export function checkedHost(url: URL): string {
  return url.hostname.replace(/^\[|\]$/g, "").replace(/\.$/, "").toLowerCase();
}

/**
 * True for `localhost` and names under it (RFC 6761: loopback, whatever a resolver says), given
 * as {@link checkedHost} gives it.
 */
export function isLocalhostName(host: string): boolean {
  return host === "localhost" || host.endsWith(".localhost");
}

/**
 * Parses an IP literal in its standard text form: dotted-quad IPv4 (no leading zeros, so no
 * octal ambiguity) or IPv6 (with `::` and an embedded IPv4 tail; brackets allowed; no zone).
 * Null for anything else, host names included.
 * @example parseIp("::ffff:127.0.0.1") → version 6, bytes ::ffff:7f00:1
 */
export function parseIp(text: string): IpAddress | null {
  const t = text.startsWith("[") && text.endsWith("]") ? text.slice(1, -1) : text;
  const v4 = parseV4(t);
  if (v4) return { version: 4, bytes: v4 };
  if (!t.includes(":")) return null;
  const v6 = parseV6(t);
  return v6 ? { version: 6, bytes: v6 } : null;
}

/** Parses `10.0.0.0/8`, `fd00::/8` or a single address (a /32 or /128); null when malformed. */
export function parseIpRange(text: string): IpRange | null {
  const [addr, bits, extra] = text.trim().split("/");
  if (extra !== undefined || addr === undefined) return null;
  const ip = parseIp(addr);
  if (!ip) return null;
  const max = ip.bytes.length * 8;
  if (bits === undefined) return { ...ip, prefix: max };
  if (!/^\d{1,3}$/.test(bits) || Number(bits) > max) return null;
  return { ...ip, prefix: Number(bits) };
}

/** True when `ip` lies in `range` (same family only). */
export function inRange(ip: IpAddress, range: IpRange): boolean {
  if (ip.version !== range.version) return false;
  for (let bit = 0; bit < range.prefix; bit += 8) {
    const take = Math.min(8, range.prefix - bit);
    const mask = (0xff << (8 - take)) & 0xff;
    if ((ip.bytes[bit / 8]! & mask) !== (range.bytes[bit / 8]! & mask)) return false;
  }
  return true;
}

function range(text: string): IpRange {
  return parseIpRange(text)!;
}

const V4_RANGES: readonly [IpRange, NonPublicKind][] = [
  [range("0.0.0.0/8"), "unspecified"],
  [range("10.0.0.0/8"), "private"],
  [range("100.64.0.0/10"), "cgnat"],
  [range("127.0.0.0/8"), "loopback"],
  [range("169.254.0.0/16"), "link-local"],
  [range("172.16.0.0/12"), "private"],
  [range("192.0.0.0/24"), "reserved"],
  [range("192.0.2.0/24"), "reserved"],
  [range("192.88.99.0/24"), "reserved"],
  [range("192.168.0.0/16"), "private"],
  [range("198.18.0.0/15"), "reserved"],
  [range("198.51.100.0/24"), "reserved"],
  [range("203.0.113.0/24"), "reserved"],
  [range("224.0.0.0/4"), "multicast"],
  [range("240.0.0.0/4"), "reserved"],
];

const V6_RANGES: readonly [IpRange, NonPublicKind][] = [
  [range("::/128"), "unspecified"],
  [range("::1/128"), "loopback"],
  [range("fc00::/7"), "private"],
  [range("fe80::/10"), "link-local"],
  [range("fec0::/10"), "private"],
  [range("ff00::/8"), "multicast"],
  [range("2001::/23"), "reserved"],
  [range("2001:db8::/32"), "reserved"],
  [range("3fff::/20"), "reserved"],
];
/** Only 2000::/3 is allocated as global unicast; everything else not listed is reserved. */
const V6_GLOBAL = range("2000::/3");
const V4_MAPPED = range("::ffff:0:0/96");
const NAT64 = range("64:ff9b::/96");
const SIX_TO_FOUR = range("2002::/16");

/**
 * The IPv4 address an IPv6 address stands for, if any: v4-mapped (`::ffff:a.b.c.d`), the
 * well-known NAT64 prefix (`64:ff9b::a.b.c.d`) and 6to4 (`2002:aabb:ccdd::`).
 */
export function embeddedV4(ip: IpAddress): IpAddress | null {
  if (ip.version !== 6) return null;
  if (inRange(ip, V4_MAPPED) || inRange(ip, NAT64)) {
    return { version: 4, bytes: ip.bytes.slice(12, 16) };
  }
  if (inRange(ip, SIX_TO_FOUR)) return { version: 4, bytes: ip.bytes.slice(2, 6) };
  return null;
}

/**
 * Why `ip` is not a public address, or null when it is. IPv6 forms that carry an IPv4
 * address (v4-mapped, NAT64, 6to4) are judged by that address.
 */
export function nonPublicKind(ip: IpAddress): NonPublicKind | null {
  if (ip.version === 4) {
    return V4_RANGES.find(([r]) => inRange(ip, r))?.[1] ?? null;
  }
  const v4 = embeddedV4(ip);
  if (v4) return nonPublicKind(v4);
  const listed = V6_RANGES.find(([r]) => inRange(ip, r))?.[1];
  if (listed) return listed;
  return inRange(ip, V6_GLOBAL) ? null : "reserved";
}

/** True when `ip` is public, or non-public but covered by `allowance`. */
export function isAddressAllowed(ip: IpAddress, allowance: AddressAllowance): boolean {
  if (nonPublicKind(ip) === null || allowance.all) return true;
  const v4 = embeddedV4(ip);
  return allowance.ranges.some((r) => inRange(ip, r) || (v4 !== null && inRange(v4, r)));
}

/**
 * The key a per-client limit counts `text` (a client address) under: an IPv4 address as itself
 * (an IPv6 form carrying one, such as `::ffff:a.b.c.d`, as that address), any other IPv6 address
 * by its /64, which one subscriber's network hands out by the billion. Text that is no address
 * is its own key.
 * @example limitKey("2001:db8:1:2:aaaa::1") → "2001:db8:1:2::/64"
 */
export function limitKey(text: string): string {
  const ip = parseIp(text.trim());
  if (ip === null) return text;
  const v4 = ip.version === 4 ? ip : embeddedV4(ip);
  if (v4 !== null) return formatIp(v4);
  const network = new Uint8Array(16);
  network.set(ip.bytes.slice(0, 8));
  return `${formatIp({ version: 6, bytes: network })}/64`;
}

/** Canonical text of an address (`127.0.0.1`, `::ffff:7f00:1`), as URL host names print it. */
export function formatIp(ip: IpAddress): string {
  if (ip.version === 4) return ip.bytes.join(".");
  const words = Array.from({ length: 8 }, (_, i) => (ip.bytes[2 * i]! << 8) | ip.bytes[2 * i + 1]!);
  let best = -1;
  let bestLen = 1;
  for (let i = 0; i < 8;) {
    let j = i;
    while (j < 8 && words[j] === 0) j++;
    if (j - i > bestLen) [best, bestLen] = [i, j - i];
    i = j === i ? i + 1 : j;
  }
  const hex = words.map((w) => w.toString(16));
  if (best < 0) return hex.join(":");
  return `${hex.slice(0, best).join(":")}::${hex.slice(best + bestLen).join(":")}`;
}

/**
 * Parses the value of an allowance setting: `off` (none), `on` (all), or a comma list of
 * addresses and CIDRs. Returns the allowance, or the entries that did not parse.
 */
export function parseAllowance(
  text: string,
): { ok: true; allowance: AddressAllowance } | { ok: false; bad: string[] } {
  const value = text.trim().toLowerCase();
  if (value === "off") return { ok: true, allowance: NO_PRIVATE_ADDRESSES };
  if (value === "on") return { ok: true, allowance: Object.freeze({ all: true, ranges: [] }) };
  const entries = value.split(",").map((e) => e.trim());
  const ranges = entries.map(parseIpRange);
  const bad = entries.filter((_, i) => ranges[i] === null);
  if (bad.length > 0 || entries.length === 0) return { ok: false, bad };
  return { ok: true, allowance: Object.freeze({ all: false, ranges: ranges as IpRange[] }) };
}
