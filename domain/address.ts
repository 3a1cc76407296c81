/**
 * IP addresses and address ranges (CIDR), IPv4 and IPv6: parsing and matching, for settings
 * that name trusted or allowed addresses (e.g. `STATUSD_TRUSTED_PROXIES`).
 * @module
 */

/** An IP address as a number: 32 bits for IPv4, 128 for IPv6. */
export interface IpAddress {
  readonly version: 4 | 6;
  readonly value: bigint;
}

/** An address range: the first `prefix` bits of `value` (a single address is /32 or /128). */
export interface AddressRange extends IpAddress {
  readonly prefix: number;
}

const V4 = /^(0|[1-9]\d{0,2})\.(0|[1-9]\d{0,2})\.(0|[1-9]\d{0,2})\.(0|[1-9]\d{0,2})$/;

function parseV4(text: string): bigint | null {
  const m = V4.exec(text);
  if (!m) return null;
  let value = 0n;
  for (const part of m.slice(1)) {
    const n = Number(part);
    if (n > 255) return null;
    value = (value << 8n) | BigInt(n);
  }
  return value;
}

function groupsOf(text: string): string[] {
  return text === "" ? [] : text.split(":");
}

function parseV6(text: string): bigint | null {
  let s = text;
  const dot = s.lastIndexOf(".");
  if (dot >= 0) {
    const colon = s.lastIndexOf(":");
    const v4 = colon >= 0 ? parseV4(s.slice(colon + 1)) : null;
    if (v4 === null) return null;
    s = `${s.slice(0, colon + 1)}${(v4 >> 16n).toString(16)}:${(v4 & 0xffffn).toString(16)}`;
  }
  const halves = s.split("::");
  if (halves.length > 2) return null;
  const head = groupsOf(halves[0]!);
  const tail = halves.length === 2 ? groupsOf(halves[1]!) : [];
  const missing = 8 - head.length - tail.length;
  if (halves.length === 1 ? missing !== 0 : missing < 1) return null;
  const groups = [...head, ...Array(halves.length === 2 ? missing : 0).fill("0"), ...tail];
  let value = 0n;
  for (const g of groups) {
    if (!/^[0-9a-fA-F]{1,4}$/.test(g)) return null;
    value = (value << 16n) | BigInt(parseInt(g, 16));
  }
  return value;
}

const MAPPED_V4 = 0xffffn << 32n;

/**
 * Parses an IPv4 or IPv6 address (brackets and an IPv6 zone such as `%eth0` are ignored); an
 * IPv4-mapped IPv6 address (`::ffff:10.0.0.1`) reads as the IPv4 address. Null when `text` is
 * not an IP address.
 */
export function parseIpAddress(text: string): IpAddress | null {
  const s = text.trim().replace(/^\[(.*)\]$/, "$1").replace(/%[^%]*$/, "");
  const v4 = parseV4(s);
  if (v4 !== null) return { version: 4, value: v4 };
  if (!s.includes(":")) return null;
  const v6 = parseV6(s);
  if (v6 === null) return null;
  if (v6 >> 32n === MAPPED_V4 >> 32n) return { version: 4, value: v6 & 0xffffffffn };
  return { version: 6, value: v6 };
}

/** Parses `10.0.0.0/8`, `fd00::/8` or a single address; null when `text` is neither. */
export function parseAddressRange(text: string): AddressRange | null {
  const [address, prefixText, ...rest] = text.trim().split("/");
  if (rest.length || address === undefined) return null;
  const ip = parseIpAddress(address);
  if (!ip) return null;
  const width = ip.version === 4 ? 32 : 128;
  if (prefixText === undefined) return { ...ip, prefix: width };
  if (!/^\d{1,3}$/.test(prefixText)) return null;
  const prefix = Number(prefixText);
  // An IPv4-mapped range written as IPv6 (::ffff:10.0.0.0/104) keeps its IPv4 meaning.
  const v4Mapped = ip.version === 4 && address.includes(":");
  const bits = v4Mapped ? prefix - 96 : prefix;
  if (bits < 0 || bits > width) return null;
  return { ...ip, prefix: bits };
}

/** True when `address` lies in `range` (IPv4 and IPv6 never match each other). */
export function rangeContains(range: AddressRange, address: IpAddress): boolean {
  if (range.version !== address.version) return false;
  const shift = BigInt((range.version === 4 ? 32 : 128) - range.prefix);
  return (range.value >> shift) === (address.value >> shift);
}

/** True when the address `text` lies in one of `ranges`; false when it is not an address. */
export function inAddressRanges(text: string, ranges: readonly AddressRange[]): boolean {
  const ip = parseIpAddress(text);
  return ip !== null && ranges.some((r) => rangeContains(r, ip));
}
