import { deepStrictEqual, equal } from "node:assert/strict";
import {
  formatIp,
  isAddressAllowed,
  limitKey,
  NO_PRIVATE_ADDRESSES,
  nonPublicKind,
  parseAllowance,
  parseIp,
  parseIpRange,
} from "../../lib/mod.ts";

Deno.test("limitKey: an IPv4 address is its own key, an IPv6 address its /64", () => {
  equal(limitKey("198.51.100.7"), "198.51.100.7");
  equal(limitKey("::ffff:198.51.100.7"), "198.51.100.7");
  equal(limitKey("2001:db8:1:2:aaaa:bbbb:cccc:dddd"), "2001:db8:1:2::/64");
  equal(limitKey("[2001:db8:1:2::9]"), "2001:db8:1:2::/64");
  equal(limitKey("2001:db8:1:3::9"), "2001:db8:1:3::/64");
  equal(limitKey("local"), "local");
});

function kind(text: string) {
  const ip = parseIp(text);
  if (!ip) throw new Error(`did not parse ${text}`);
  return nonPublicKind(ip);
}

Deno.test("nonPublicKind names every non-public IPv4 range and passes public ones", () => {
  const cases: [string, string | null][] = [
    ["0.0.0.0", "unspecified"],
    ["10.1.2.3", "private"],
    ["100.64.0.1", "cgnat"],
    ["100.127.255.255", "cgnat"],
    ["100.128.0.1", null],
    ["127.0.0.1", "loopback"],
    ["127.255.255.254", "loopback"],
    ["169.254.169.254", "link-local"],
    ["172.16.0.1", "private"],
    ["172.31.255.255", "private"],
    ["172.32.0.1", null],
    ["192.0.0.8", "reserved"],
    ["192.0.2.1", "reserved"],
    ["192.168.1.1", "private"],
    ["198.18.0.1", "reserved"],
    ["198.51.100.7", "reserved"],
    ["203.0.113.9", "reserved"],
    ["224.0.0.1", "multicast"],
    ["239.255.255.250", "multicast"],
    ["240.0.0.1", "reserved"],
    ["255.255.255.255", "reserved"],
    ["8.8.8.8", null],
    ["93.184.216.34", null],
  ];
  for (const [address, expected] of cases) equal(kind(address), expected, address);
});

Deno.test("nonPublicKind judges IPv6, and IPv6 forms carrying IPv4 by that IPv4", () => {
  const cases: [string, string | null][] = [
    ["::", "unspecified"],
    ["::1", "loopback"],
    ["[::1]", "loopback"],
    ["::ffff:127.0.0.1", "loopback"],
    ["::ffff:7f00:1", "loopback"],
    ["0:0:0:0:0:ffff:a00:1", "private"],
    ["::ffff:8.8.8.8", null],
    ["::127.0.0.1", "reserved"],
    ["64:ff9b::7f00:1", "loopback"],
    ["64:ff9b::808:808", null],
    ["64:ff9b:1::1", "reserved"],
    ["2002:7f00:1::", "loopback"],
    ["2002:808:808::1", null],
    ["fd00::1", "private"],
    ["fc12:3456::1", "private"],
    ["fe80::1", "link-local"],
    ["fec0::1", "private"],
    ["ff02::1", "multicast"],
    ["2001:db8::1", "reserved"],
    ["2001::1", "reserved"],
    ["100::1", "reserved"],
    ["4000::1", "reserved"],
    ["2606:4700::1111", null],
    ["2a00:1450:4001:82b::200e", null],
  ];
  for (const [address, expected] of cases) equal(kind(address), expected, address);
});

Deno.test("parseIp reads standard literals only", () => {
  for (
    const bad of [
      "127.1",
      "0x7f.0.0.1",
      "010.0.0.1",
      "256.0.0.1",
      "1:2:3:4:5:6:7:8:9",
      "1::2::3",
      "localhost",
      "fe80::1%eth0",
      "",
    ]
  ) {
    equal(parseIp(bad), null, bad);
  }
  equal(formatIp(parseIp("0:0:0:0:0:ffff:127.0.0.1")!), "::ffff:7f00:1");
  equal(formatIp(parseIp("2001:db8:0:0:1:0:0:1")!), "2001:db8::1:0:0:1");
  equal(formatIp(parseIp("10.0.0.1")!), "10.0.0.1");
});

Deno.test("an allowance lets exactly its addresses and ranges through", () => {
  const parsed = parseAllowance("127.0.0.1, 10.0.0.0/8,fd00::/8");
  equal(parsed.ok, true);
  if (!parsed.ok) return;
  const allowed = (t: string) => isAddressAllowed(parseIp(t)!, parsed.allowance);
  equal(allowed("127.0.0.1"), true);
  equal(allowed("::ffff:127.0.0.1"), true);
  equal(allowed("127.0.0.2"), false);
  equal(allowed("10.200.1.1"), true);
  equal(allowed("192.168.0.1"), false);
  equal(allowed("fd12::1"), true);
  equal(allowed("::1"), false);
  equal(allowed("8.8.8.8"), true);
  equal(isAddressAllowed(parseIp("127.0.0.1")!, NO_PRIVATE_ADDRESSES), false);
  const on = parseAllowance("on");
  equal(on.ok && isAddressAllowed(parseIp("169.254.169.254")!, on.allowance), true);
  deepStrictEqual(parseAllowance("off"), { ok: true, allowance: NO_PRIVATE_ADDRESSES });
  deepStrictEqual(parseAllowance("127.0.0.1,nope,10.0.0.0/33"), {
    ok: false,
    bad: ["nope", "10.0.0.0/33"],
  });
  equal(parseIpRange("10.0.0.0/8")?.prefix, 8);
});
