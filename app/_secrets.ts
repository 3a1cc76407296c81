/**
 * MACs under the server's own secrets: each secret is made at first use and kept in the store
 * (`store.mail.secret`), so every instance on one database agrees and a restart keeps links and
 * cookies already handed out working.
 * @module
 */
import { hmac } from "@oslojs/crypto/hmac";
import { SHA256 } from "@oslojs/crypto/sha2";
import { encodeBase64urlNoPadding } from "@oslojs/encoding";
import { randomToken, sameText } from "./_tokens.ts";
import type { AppContext } from "./context.ts";

/** Keys by store, then by secret name (read once per process). */
const keys = new WeakMap<object, Map<string, Promise<Uint8Array>>>();

function keyOf(ctx: AppContext, name: string): Promise<Uint8Array> {
  let byName = keys.get(ctx.store);
  if (byName === undefined) keys.set(ctx.store, byName = new Map());
  let key = byName.get(name);
  if (key === undefined) {
    key = ctx.store.mail.secret(name, () => randomToken(32))
      .then((secret) => new TextEncoder().encode(secret));
    key.catch(() => byName.delete(name));
    byName.set(name, key);
  }
  return key;
}

/** HMAC-SHA256 of `text` under the secret `name`, base64url (43 characters). */
export async function macOf(ctx: AppContext, name: string, text: string): Promise<string> {
  return encodeBase64urlNoPadding(
    hmac(SHA256, await keyOf(ctx, name), new TextEncoder().encode(text)),
  );
}

/** True when `mac` is {@link macOf}`(name, text)` (compared in constant time). */
export async function isMacOf(
  ctx: AppContext,
  name: string,
  text: string,
  mac: string,
): Promise<boolean> {
  return sameText(mac, await macOf(ctx, name, text));
}
