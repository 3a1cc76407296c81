/**
 * Where an alert may be sent (`checkDestination`, issue #13): the same address check as vendor
 * fetches (`checkPin`), with the destination's own words. A name is resolved once, every answer
 * must be allowed, and the address to connect to is the checked one.
 */
import { deepStrictEqual, match } from "node:assert/strict";
import { type AddressAllowance, parseAllowance } from "../../lib/mod.ts";
import { checkDestination } from "../../outbound/send_http.ts";

function allowance(setting: string): AddressAllowance {
  const r = parseAllowance(setting);
  if (!r.ok) throw new Error(setting);
  return r.allowance;
}

const NONE = allowance("off");
const answers: Record<string, string[]> = {
  "hooks.example.test": ["2001:db8::1", "93.184.216.34"],
  "inside.example.test": ["93.184.216.34", "10.1.2.3"],
};
const resolve = (host: string) => Promise.resolve(answers[host] ?? []);

Deno.test("a public destination is pinned to its checked address, IPv4 first", async () => {
  // 2001:db8::/32 is documentation space: allow it so the name's IPv6 answer passes too.
  const both = allowance("2001:db8::/32");
  deepStrictEqual(
    await checkDestination(new URL("https://hooks.example.test/x"), both, resolve),
    { pin: "93.184.216.34" },
  );
  deepStrictEqual(
    await checkDestination(new URL("https://93.184.216.34/x"), NONE, resolve),
    { pin: null },
    "an IP literal needs no pin",
  );
});

Deno.test("a destination is refused when one answer is private, when it does not resolve, or when it is loopback", async () => {
  const refusal = async (url: string, allowed = NONE) => {
    const c = await checkDestination(new URL(url), allowed, resolve);
    return "refused" in c ? c.refused : `pinned to ${c.pin}`;
  };
  match(
    await refusal("https://inside.example.test/hook"),
    /^refused address: inside\.example\.test resolves to 10\.1\.2\.3, which is not a public address \(private\) and is not allowed \(STATUSD_ALLOW_PRIVATE_DESTINATIONS\)$/,
  );
  match(
    await refusal("https://nowhere.example.test/"),
    /^nowhere\.example\.test does not resolve$/,
  );
  match(
    await refusal("http://localhost:8080/"),
    /^refused address: localhost resolves to 127\.0\.0\.1/,
  );
  match(
    await refusal("http://[::1]/"),
    /^refused address: ::1 is not a public address \(loopback\)/,
  );
  match(await refusal("ftp://hooks.example.test/"), /^ftp: URLs cannot be sent to$/);
  deepStrictEqual(
    await refusal("http://app.localhost/", allowance("127.0.0.1")),
    "pinned to 127.0.0.1",
    "an allowed loopback name is pinned to loopback, never resolved",
  );
});
