/**
 * Random secrets and their stored hashes, shared by API keys and sessions.
 * @module
 */
import { sha256 } from "@oslojs/crypto/sha2";
import { constantTimeEqual } from "@oslojs/crypto/subtle";
import { encodeBase64urlNoPadding, encodeHexLowerCase } from "@oslojs/encoding";

/** `bytes` random bytes as base64url without padding (32 bytes → 43 characters). */
export function randomToken(bytes = 32): string {
  return encodeBase64urlNoPadding(crypto.getRandomValues(new Uint8Array(bytes)));
}

/** SHA-256 of a high-entropy secret, lower-case hex (what the store keeps). */
export function hashToken(secret: string): string {
  return encodeHexLowerCase(sha256(new TextEncoder().encode(secret)));
}

/** Constant-time equality of two strings. */
export function sameText(a: string, b: string): boolean {
  const x = new TextEncoder().encode(a);
  const y = new TextEncoder().encode(b);
  return x.length === y.length && constantTimeEqual(x, y);
}
