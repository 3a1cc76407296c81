/**
 * Who is calling, by network address: the connection's peer, or, when the peer is one of the
 * reverse proxies the self-hoster named (`STATUSD_TRUSTED_PROXIES`), the address that proxy
 * forwarded. Headers from anyone else are ignored, so a client cannot choose its own address.
 * @module
 */
import type { Context } from "hono";
import { getConnInfo } from "hono/deno";
import { inRange, type IpRange, parseIp, parseIpRange } from "../../lib/mod.ts";

/** Reads a request's client address. */
export type AddressOf = (c: Context) => string;

/** The connection's peer address, or "local" for in-process requests without one. */
function peerOf(c: Context): string {
  try {
    return getConnInfo(c).remote.address ?? "local";
  } catch {
    return "local";
  }
}

const V4_MAPPED = parseIpRange("::ffff:0:0/96")!;

/** True when the address `text` lies in one of `ranges` (`::ffff:a.b.c.d` counts as a.b.c.d). */
function trusted(text: string, ranges: readonly IpRange[]): boolean {
  const ip = parseIp(text.trim());
  if (!ip) return false;
  const v4 = inRange(ip, V4_MAPPED) ? { version: 4 as const, bytes: ip.bytes.slice(12) } : null;
  return ranges.some((r) => inRange(ip, r) || (v4 !== null && inRange(v4, r)));
}

/** The hops a proxy chain forwarded, client first: `X-Forwarded-For`, else `Forwarded: for=`. */
function forwardedChain(c: Context): string[] {
  const xff = c.req.header("x-forwarded-for");
  if (xff) return xff.split(",").map((s) => s.trim()).filter((s) => s !== "");
  const forwarded = c.req.header("forwarded");
  if (!forwarded) return [];
  const hops: string[] = [];
  for (const element of forwarded.split(",")) {
    const m = /(?:^|;)\s*for\s*=\s*("?)([^";]+)\1/i.exec(element);
    if (m) {
      hops.push(
        m[2]!.trim().replace(/^\[([^\]]+)\](?::\d+)?$/, "$1").replace(/^([\d.]+):\d+$/, "$1"),
      );
    }
  }
  return hops;
}

/**
 * An `AddressOf` trusting the proxies in `proxies` (addresses/CIDRs, already validated by
 * config). The chain is read from the right: the first hop that is not a trusted proxy is
 * the client; a hop that is not an IP address (`unknown`, a hidden name) stops the walk there.
 */
export function clientAddressReader(proxies: readonly string[]): AddressOf {
  const ranges = proxies.map(parseIpRange).filter((r): r is IpRange => r !== null);
  if (ranges.length === 0) return peerOf;
  return function clientAddress(c) {
    const peer = peerOf(c);
    if (!trusted(peer, ranges)) return peer;
    const chain = forwardedChain(c);
    for (let i = chain.length - 1; i >= 0; i--) {
      // Cut: a forwarded hop is text from a header, and it becomes a key the limits remember.
      if (!trusted(chain[i]!, ranges)) return chain[i]!.slice(0, 64);
    }
    return chain[0]?.slice(0, 64) ?? peer;
  };
}
