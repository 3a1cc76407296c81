/**
 * Mail addresses as statusd keeps them, and how a request to confirm one is queued: its own
 * route id (one queue per address) and a subject naming the address, written by the app and
 * read back by the delivery worker.
 * @module
 */

/** An address as mail is kept and sent to it: trimmed, lower case. */
export function mailAddress(address: string): string {
  return address.trim().toLowerCase();
}

/** The route id prefix of deliveries asking an address to confirm. */
export const CONSENT_ROUTE_PREFIX = "mail_";

/**
 * The id prefix of the one mail asking an address that unsubscribed or bounced to confirm a new
 * subscription again: the only mail such an address may get (a week apart at most).
 */
export const RECONFIRM_DELIVERY_PREFIX = "dlv_reconfirm_";

const CONSENT_SUBJECT_PREFIX = "mail:";

/** The delivery subject naming the address a request to confirm goes to. */
export function consentSubject(address: string): string {
  return `${CONSENT_SUBJECT_PREFIX}${address}`;
}

/** The address a request to confirm goes to, from its delivery subject ("" when none). */
export function consentAddress(subject: string | null): string {
  return subject?.startsWith(CONSENT_SUBJECT_PREFIX)
    ? subject.slice(CONSENT_SUBJECT_PREFIX.length)
    : "";
}
