/**
 * `store.mail`: who agreed to receive statusd's mail, and who asked for none. An address gets
 * alert mail from an account only after it confirmed that account's request (double opt-in);
 * an address that unsubscribed or bounced is suppressed for every account until its owner
 * confirms again. The server's own secrets (keys of its HMACs) live here too.
 * @module
 */
import type { EpochMs } from "../time.ts";

/** Where an address stands with one account. */
export type MailConsentState = "pending" | "confirmed";

/** Why an address gets no mail. */
export interface MailSuppression {
  readonly reason: "unsubscribed" | "bounced";
  readonly at: EpochMs;
}

/** The mail noun of the store. */
export interface MailStore {
  /** The consent states of `addresses` (lower case) for `accountId`; absent: never asked. */
  consents(
    accountId: string,
    addresses: readonly string[],
  ): Promise<ReadonlyMap<string, MailConsentState>>;
  /**
   * Asks `address` for consent on behalf of `accountId` with a new token (its hash kept): a
   * pending request is replaced; a confirmed consent stays confirmed (false: nothing asked).
   */
  requestConsent(
    accountId: string,
    address: string,
    tokenHash: string,
    at: EpochMs,
  ): Promise<boolean>;
  /**
   * Confirms the request whose token hashes to `tokenHash` (once) and lifts any suppression of
   * its address; the account and address, or null for an unknown or used token.
   */
  confirm(
    tokenHash: string,
    at: EpochMs,
  ): Promise<{ readonly accountId: string; readonly address: string } | null>;
  /** Suppressions among `addresses` (lower case). */
  suppressions(addresses: readonly string[]): Promise<ReadonlyMap<string, MailSuppression>>;
  /** Suppresses `address` for every account (its consents go back to pending). */
  suppress(address: string, suppression: MailSuppression): Promise<void>;
  /** Lifts a suppression (the owner confirmed a subscription of their own). */
  unsuppress(address: string): Promise<void>;
  /** The secret named `name`, made by `make` and kept the first time it is asked for. */
  secret(name: string, make: () => string): Promise<string>;
}
