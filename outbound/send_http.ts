/**
 * Sends a rendered HTTP alert: the destination's name is resolved once and every
 * address must be public unless STATUSD_ALLOW_PRIVATE_DESTINATIONS allows it; the connection goes
 * to the address that was checked (a pinned pool, as vendor fetches use), so a name that
 * rebinds cannot reach an internal address. No redirect is followed (a 3xx is a failure), the
 * answer is read up to 500 characters, and a timeout ends the attempt. Never throws.
 * @module
 */
import { type AddressAllowance, checkedHost, type ProxySettings } from "../lib/mod.ts";
import {
  checkPin,
  createPinnedPool,
  type PinnedPool,
  systemResolve,
} from "../ingest/pinned_client.ts";
import type { HttpOutgoing } from "./channels/mod.ts";
import { maskedUrl } from "./channels/webhook.ts";
import type { SendResult } from "./transport.ts";

/** Options of {@link createHttpSender}. */
export interface HttpSenderOptions {
  readonly timeoutMs: number;
  readonly allowPrivate: AddressAllowance;
  /** Resolves a name to addresses (tests); the system resolver by default. */
  readonly resolve?: (host: string) => Promise<string[]>;
  /** Extra root certificates (PEM) for https (tests). */
  readonly caCerts?: readonly string[];
  /** The proxies deliveries go through (`HTTPS_PROXY`, `NO_PROXY`…); none when absent. */
  readonly proxy?: ProxySettings;
}

/** Sends HTTP alerts; `close()` when done. */
export interface HttpSender {
  send(out: HttpOutgoing): Promise<SendResult>;
  close(): void;
}

const REPLY_MAX = 500;
/** Statuses worth retrying besides 5xx. */
const RETRYABLE = new Set([408, 425, 429]);

/** Why a destination is refused, or the address to connect to (null: an IP literal). */
export async function checkDestination(
  url: URL,
  allowance: AddressAllowance,
  resolve: (host: string) => Promise<string[]> = systemResolve,
): Promise<{ refused: string } | { pin: string | null }> {
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    return { refused: `${url.protocol} URLs cannot be sent to` };
  }
  const pin = await checkPin(checkedHost(url), allowance, resolve);
  if (pin.allowed) return { pin: pin.address };
  return {
    refused: pin.unresolved
      ? pin.reason
      : `refused address: ${pin.reason} (STATUSD_ALLOW_PRIVATE_DESTINATIONS)`,
  };
}

/** `Retry-After` as milliseconds from `now` (seconds or an HTTP date), or null. */
export function retryAfterMs(value: string | null, now: number): number | null {
  if (!value) return null;
  const v = value.trim();
  if (/^\d{1,9}$/.test(v)) return Number(v) * 1000;
  const at = Date.parse(v);
  return Number.isFinite(at) ? Math.max(0, at - now) : null;
}

/** A sender over one pinned pool. */
export function createHttpSender(options: HttpSenderOptions): HttpSender {
  const pool: PinnedPool = createPinnedPool({
    caCerts: options.caCerts,
    proxy: options.proxy,
  });
  return {
    async send(out) {
      const started = performance.now();
      const took = () => performance.now() - started;
      const fail = (
        error: string,
        permanent: boolean,
        status: number | null = null,
        reply: string | null = null,
        retryAfter: number | null = null,
      ): SendResult => ({
        ok: false,
        status,
        reply,
        latencyMs: took(),
        retryAfterMs: retryAfter,
        permanent,
        error,
      });
      let url: URL;
      try {
        url = new URL(out.url);
      } catch {
        return fail("the route's URL cannot be read", true);
      }
      const checked = await checkDestination(url, options.allowPrivate, options.resolve);
      if ("refused" in checked) return fail(checked.refused, true);
      const headers = new Headers({ ...out.headers, "user-agent": "statusd (alerts)" });
      const controller = new AbortController();
      const timer = setTimeout(() => controller.abort(), options.timeoutMs);
      try {
        const res = await pool.fetch(url, checked.pin, {
          method: "POST",
          headers: [...headers],
          body: out.body,
          signal: controller.signal,
        });
        const reply = await firstChars(res);
        if (res.status >= 200 && res.status < 300) {
          return {
            ok: true,
            status: res.status,
            reply,
            latencyMs: took(),
            retryAfterMs: null,
            permanent: false,
            error: null,
          };
        }
        const retryable = res.status >= 500 || RETRYABLE.has(res.status);
        const wait = retryable ? retryAfterMs(res.headers.get("retry-after"), Date.now()) : null;
        const what = res.status >= 300 && res.status < 400
          ? `HTTP ${res.status} (redirects are not followed)`
          : `HTTP ${res.status}`;
        return fail(what, !retryable, res.status, reply, wait);
      } catch (err) {
        if (controller.signal.aborted) {
          return fail(`timeout after ${Math.round(options.timeoutMs / 1000)} s`, false);
        }
        // Runtime messages may quote the URL, and a chat webhook's URL is its secret.
        const said = String((err as Error).message ?? err)
          .replace(/\bhttps?:\/\/[^\s)"']+/g, (u) => maskedUrl(u))
          .slice(0, 200);
        return fail(`network error: ${said}`, false);
      } finally {
        clearTimeout(timer);
      }
    },
    close: () => pool.close(),
  };
}

async function firstChars(res: Response): Promise<string | null> {
  if (!res.body) return null;
  const reader = res.body.getReader();
  const decoder = new TextDecoder();
  let text = "";
  try {
    while (text.length < REPLY_MAX) {
      const { done, value } = await reader.read();
      if (done) break;
      text += decoder.decode(value, { stream: true });
    }
  } finally {
    await reader.cancel().catch(() => {});
  }
  return text ? text.slice(0, REPLY_MAX) : null;
}
