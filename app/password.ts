/**
 * Password hashing fit for passwords: scrypt (N=2^17, r=8, p=1; OWASP's minimum), with a
 * random 16-byte salt. The parameters travel inside the stored string so they can be raised
 * later without breaking existing hashes.
 * @module
 */
import { scrypt, timingSafeEqual } from "node:crypto";
import { decodeBase64, encodeBase64 } from "@oslojs/encoding";

const COST = { N: 2 ** 17, r: 8, p: 1 } as const;
const KEY_BYTES = 32;

function derive(
  password: string,
  salt: Uint8Array,
  cost: { N: number; r: number; p: number },
): Promise<Uint8Array> {
  return new Promise((resolve, reject) =>
    scrypt(
      password.normalize("NFKC"),
      salt,
      KEY_BYTES,
      { ...cost, maxmem: 256 * cost.N * cost.r + 1024 * 1024 },
      (err, key) => (err ? reject(err) : resolve(new Uint8Array(key))),
    )
  );
}

/** Hashes a password: `scrypt$N$r$p$<salt base64>$<hash base64>`. Takes about half a second. */
export async function hashPassword(password: string): Promise<string> {
  const salt = crypto.getRandomValues(new Uint8Array(16));
  const key = await derive(password, salt, COST);
  return ["scrypt", COST.N, COST.r, COST.p, encodeBase64(salt), encodeBase64(key)].join("$");
}

/** True when `password` matches `stored` (constant-time compare); false for a malformed hash. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parts = stored.split("$");
  if (parts.length !== 6 || parts[0] !== "scrypt") return false;
  const [N, r, p] = parts.slice(1, 4).map(Number) as [number, number, number];
  const salt = decodeBase64(parts[4]!);
  const expected = decodeBase64(parts[5]!);
  const actual = await derive(password, salt, { N, r, p });
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

/** A hash of a random password, verified against when an email is unknown (same timing). */
let decoy: Promise<string> | null = null;

/** Spends the same time as a real check, for sign-in attempts with an unknown email. */
export async function verifyDecoy(password: string): Promise<false> {
  decoy ??= hashPassword(crypto.randomUUID());
  await verifyPassword(password, await decoy);
  return false;
}
