/**
 * Password hashing fit for passwords: scrypt (N=2^17, r=8, p=1; OWASP's minimum), with a
 * random 16-byte salt. The parameters travel inside the stored string so they can be raised
 * later without breaking existing hashes.
 *
 * Each hash holds 128 MiB for about half a second, so at most {@link HASHING}`.concurrent` run
 * at once in the process; up to `.waiting` more wait their turn, and anything beyond that is
 * refused at once with `Busy` (503 + `Retry-After`) instead of piling up memory.
 * @module
 */
import { scrypt, timingSafeEqual } from "node:crypto";
import { decodeBase64, encodeBase64 } from "@oslojs/encoding";
import { Busy } from "../domain/mod.ts";

/** How many password hashes run at once, and how many may wait for a turn. */
export const HASHING = { concurrent: 2, waiting: 8, retryAfterSeconds: 2 } as const;

/** A counting semaphore with a bounded line: `run` waits for a slot or throws when the line is full. */
export class HashGate {
  #running = 0;
  readonly #line: (() => void)[] = [];

  constructor(
    readonly limits: { concurrent: number; waiting: number; retryAfterSeconds: number },
  ) {}

  /** Runs `work` in a slot; throws `Busy` when every slot is taken and the line is full. */
  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.#running < this.limits.concurrent) this.#running++;
    else if (this.#line.length < this.limits.waiting) {
      // The slot is handed over by the finishing holder, so `running` stays as it is.
      await new Promise<void>((resolve) => this.#line.push(resolve));
    } else {
      throw new Busy(this.limits.retryAfterSeconds, "Password checking");
    }
    try {
      return await work();
    } finally {
      const next = this.#line.shift();
      if (next) next();
      else this.#running--;
    }
  }

  /** Hashes running and waiting now. */
  get load(): { running: number; waiting: number } {
    return { running: this.#running, waiting: this.#line.length };
  }
}

/** The process-wide gate every password hash goes through. */
export const passwordHashing: HashGate = new HashGate(HASHING);

const COST = { N: 2 ** 17, r: 8, p: 1 } as const;
const KEY_BYTES = 32;

function derive(
  password: string,
  salt: Uint8Array,
  cost: { N: number; r: number; p: number },
): Promise<Uint8Array> {
  return passwordHashing.run(() =>
    new Promise<Uint8Array>((resolve, reject) =>
      scrypt(
        password.normalize("NFKC"),
        salt,
        KEY_BYTES,
        { ...cost, maxmem: 256 * cost.N * cost.r + 1024 * 1024 },
        (err, key) => (err ? reject(err) : resolve(new Uint8Array(key))),
      )
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
  decoy ??= hashPassword(crypto.randomUUID()).catch((err) => {
    decoy = null; // e.g. Busy: try again next time rather than keep a failed decoy
    throw err;
  });
  await verifyPassword(password, await decoy);
  return false;
}
