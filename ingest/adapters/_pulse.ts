/**
 * Shared pieces of the adapters' pulses (adapter.ts `Pulse`): Statuspage's `status.json`, and
 * a short digest for pulse documents whose fingerprint is all of what they say.
 * @module
 */
import { z } from "zod";
import type { Pulse } from "./adapter.ts";
import { decodeJson, underPage, validate } from "./_json_payload.ts";

/**
 * A short, stable digest of `text` (16 hex digits: two 32-bit FNV-1a lanes). Pure and
 * synchronous; a collision only delays a change to the next full read.
 */
export function digestText(text: string): string {
  let a = 0x811c9dc5;
  let b = 0x050c5d1f;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x01000193) ^ (b >>> 15);
  }
  return (a >>> 0).toString(16).padStart(8, "0") + (b >>> 0).toString(16).padStart(8, "0");
}

/**
 * `/api/v2/status.json`: the page-wide indicator and `page.updated_at`, which the platform
 * moves on every change of the page (a component's status, an incident or maintenance and its
 * updates). FORMATS.md §1; fixtures statuspage/github-status-none.json, mongodb-docs-….
 */
const statusDocument = z.object({
  page: z.object({ updated_at: z.string().min(1) }),
  status: z.object({ indicator: z.string() }),
});

/** The Statuspage `status.json` pulse: fingerprint `indicator@page.updated_at`. */
export function statusJsonPulse(platform: string): Pulse {
  return {
    endpoint: (vendor) => underPage(vendor.statusPageUrl, "api/v2/status.json"),
    fingerprint(body) {
      const doc = validate(platform, decodeJson(platform, body), statusDocument);
      return `${doc.status.indicator}@${doc.page.updated_at}`;
    },
  };
}
