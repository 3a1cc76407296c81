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

/** How many password hashes run at once, and how many may wait for a turn in each lane. */
export const HASHING = { concurrent: 2, waiting: 8, retryAfterSeconds: 2, perKey: 2 } as const;

/**
 * Which line a hash waits in. `member`: checking the password of an account that exists;
 * `other`: everything a stranger can cause without knowing an account (checking an unknown
 * email against the decoy, hashing a new password at sign-up). A free slot always goes to the
 * `member` line first, so a storm of sign-ins with made-up emails, from however many addresses,
 * cannot keep a real person from signing in.
 */
export type HashLane = "member" | "other";

/**
 * A counting semaphore with two bounded lines: `run` waits for a slot or throws `Busy` when its
 * line is full, or when `perKey` hashes of the same key (an email) already run or wait.
 */
export class HashGate {
  #running = 0;
  readonly #lines: Record<HashLane, (() => void)[]> = { member: [], other: [] };
  readonly #keys = new Map<string, number>();

  constructor(
    readonly limits: {
      concurrent: number;
      waiting: number;
      retryAfterSeconds: number;
      perKey?: number;
    },
  ) {}

  /** Runs `work` in a slot; throws `Busy` when every slot is taken and the line is full. */
  async run<T>(work: () => Promise<T>, lane: HashLane = "member", key?: string): Promise<T> {
    if (key !== undefined && (this.#keys.get(key) ?? 0) >= (this.limits.perKey ?? Infinity)) {
      throw new Busy(this.limits.retryAfterSeconds, "Password checking for this account");
    }
    const line = this.#lines[lane];
    if (this.#running >= this.limits.concurrent && line.length >= this.limits.waiting) {
      throw new Busy(this.limits.retryAfterSeconds, "Password checking");
    }
    // The key counts from the moment it waits until its work is done.
    if (key !== undefined) this.#keys.set(key, (this.#keys.get(key) ?? 0) + 1);
    try {
      if (this.#running < this.limits.concurrent) this.#running++;
      // The slot is handed over by the finishing holder, so `running` stays as it is.
      else await new Promise<void>((resolve) => line.push(resolve));
      try {
        return await work();
      } finally {
        const next = this.#lines.member.shift() ?? this.#lines.other.shift();
        if (next) next();
        else this.#running--;
      }
    } finally {
      if (key !== undefined) this.#release(key);
    }
  }

  #release(key: string) {
    const n = (this.#keys.get(key) ?? 1) - 1;
    if (n > 0) this.#keys.set(key, n);
    else this.#keys.delete(key);
  }

  /** Hashes running and waiting now. */
  get load(): { running: number; waiting: number } {
    return {
      running: this.#running,
      waiting: this.#lines.member.length + this.#lines.other.length,
    };
  }
}

/** The process-wide gate every password hash goes through. */
export const passwordHashing: HashGate = new HashGate(HASHING);

/** scrypt's cost parameters. */
export interface PasswordCost {
  readonly N: number;
  readonly r: number;
  readonly p: number;
}

/** The cost of every hash statusd makes: N=2^17, r=8, p=1 (OWASP's minimum for scrypt). */
export const PASSWORD_COST: PasswordCost = { N: 2 ** 17, r: 8, p: 1 };
const KEY_BYTES = 32;

function derive(
  password: string,
  salt: Uint8Array,
  cost: { N: number; r: number; p: number },
  lane: HashLane,
  key?: string,
): Promise<Uint8Array> {
  return passwordHashing.run(
    () =>
      new Promise<Uint8Array>((resolve, reject) =>
        scrypt(
          password.normalize("NFKC"),
          salt,
          KEY_BYTES,
          { ...cost, maxmem: 256 * cost.N * cost.r + 1024 * 1024 },
          (err, out) => (err ? reject(err) : resolve(new Uint8Array(out))),
        )
      ),
    lane,
    key,
  );
}

/**
 * Hashes a password: `scrypt$N$r$p$<salt base64>$<hash base64>`. Takes about half a second at
 * {@link PASSWORD_COST}, which production always uses (`cost` is lowered by test contexts only).
 */
export async function hashPassword(
  password: string,
  lane: HashLane = "other",
  cost: PasswordCost = PASSWORD_COST,
): Promise<string> {
  const salt = crypto.getRandomValues(new Uint8Array(16));
  return storedHash(cost, salt, await derive(password, salt, cost, lane));
}

/** A derived key as a stored hash: the parameters travel with it, so they can be raised later. */
export function storedHash(
  cost: { N: number; r: number; p: number },
  salt: Uint8Array,
  key: Uint8Array,
): string {
  return ["scrypt", cost.N, cost.r, cost.p, encodeBase64(salt), encodeBase64(key)].join("$");
}

/**
 * True when `password` matches `stored` (constant-time compare); false for a malformed hash.
 * `key` (the member's email) bounds how many checks of one account wait at once.
 */
export async function verifyPassword(
  password: string,
  stored: string,
  lane: HashLane = "member",
  key?: string,
): Promise<boolean> {
  const parts = stored.split("$");
  if (parts.length !== 6 || parts[0] !== "scrypt") return false;
  const [N, r, p] = parts.slice(1, 4).map(Number) as [number, number, number];
  const salt = decodeBase64(parts[4]!);
  const expected = decodeBase64(parts[5]!);
  const actual = await derive(password, salt, { N, r, p }, lane, key);
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

/**
 * A hash of a random password per cost, verified against when an email is unknown (the same
 * timing as a real check).
 */
const decoys = new Map<string, Promise<string>>();

/**
 * Spends the same time as a real check at `cost`, for sign-in attempts with an unknown email.
 */
export async function verifyDecoy(
  password: string,
  cost: PasswordCost = PASSWORD_COST,
): Promise<false> {
  const key = `${cost.N}$${cost.r}$${cost.p}`;
  let decoy = decoys.get(key);
  if (!decoy) {
    decoy = hashPassword(crypto.randomUUID(), "other", cost).catch((err) => {
      decoys.delete(key); // e.g. Busy: try again next time rather than keep a failed decoy
      throw err;
    });
    decoys.set(key, decoy);
  }
  await verifyPassword(password, await decoy, "other");
  return false;
}
