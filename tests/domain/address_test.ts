import { deepStrictEqual, equal } from "node:assert/strict";
import { inAddressRanges, parseAddressRange, parseIpAddress } from "../../domain/mod.ts";

Deno.test("IP addresses parse in their usual spellings; anything else is null", () => {
  deepStrictEqual(parseIpAddress("10.0.0.1"), { version: 4, value: 0x0a000001n });
  deepStrictEqual(parseIpAddress("::1"), { version: 6, value: 1n });
  deepStrictEqual(parseIpAddress("[2001:db8::1]"), { version: 6, value: 0x20010db8n << 96n | 1n });
  deepStrictEqual(parseIpAddress("fe80::1%eth0"), { version: 6, value: 0xfe80n << 112n | 1n });
  deepStrictEqual(parseIpAddress("::ffff:127.0.0.1"), { version: 4, value: 0x7f000001n });
  deepStrictEqual(parseIpAddress("::"), { version: 6, value: 0n });
  for (
    const bad of [
      "",
      "unknown",
      "1.2.3",
      "1.2.3.256",
      "01.2.3.4",
      "1::2::3",
      "12345::",
      "1:2:3:4:5:6:7:8:9",
      ":1",
      "g::1",
    ]
  ) {
    equal(parseIpAddress(bad), null, bad);
  }
});

Deno.test("address ranges match what their prefix covers, IPv4 and IPv6 apart", () => {
  const ranges = ["10.0.0.0/8", "192.168.1.7", "fd00::/8", "::ffff:172.16.0.0/108"].map((r) =>
    parseAddressRange(r)!
  );
  const cases: [string, boolean][] = [
    ["10.255.0.1", true],
    ["11.0.0.1", false],
    ["192.168.1.7", true],
    ["192.168.1.8", false],
    ["fd12::1", true],
    ["fe80::1", false],
    ["172.16.5.5", true],
    ["172.32.0.1", false],
    ["::ffff:10.1.2.3", true],
    ["not an address", false],
  ];
  for (const [address, inside] of cases) equal(inAddressRanges(address, ranges), inside, address);
  for (const bad of ["10.0.0.0/33", "::/129", "10.0.0.0/x", "10.0.0.0/8/1", "host.example"]) {
    equal(parseAddressRange(bad), null, bad);
  }
});
