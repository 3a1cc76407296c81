/**
 * A tiny cookie-keeping browser over `app.request`, for the server-rendered pages: it follows
 * no redirects, keeps cookies, and fills forms with their CSRF token. `address` makes its
 * requests come from that client address (as `Deno.serve` would report it).
 * @module
 */
import type { createServer } from "../../routes/mod.ts";

/** The env `Deno.serve` hands the app for a connection from `address`. */
export function fromAddress(address: string) {
  return { remoteAddr: { hostname: address, port: 40000, transport: "tcp" } };
}

/** The CSRF token in a rendered form ("" when none). */
export function csrfOf(html: string): string {
  return /name="_csrf" value="([^"]+)"/.exec(html)?.[1] ?? "";
}

/** A browser over `app`; `address` is the client address of every request. */
export function formBrowser(app: ReturnType<typeof createServer>, address?: string) {
  const jar = new Map<string, string>();
  const send = async (path: string, init: RequestInit = {}) => {
    const headers = new Headers(init.headers);
    if (!headers.has("accept")) headers.set("accept", "text/html,*/*;q=0.8");
    if (jar.size) headers.set("cookie", [...jar].map(([k, v]) => `${k}=${v}`).join("; "));
    const res = await app.request(
      path,
      { ...init, headers, redirect: "manual" },
      address ? fromAddress(address) : undefined,
    );
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(";");
      const [k, v] = pair!.split("=");
      if (v === "" || /Max-Age=0/i.test(c)) jar.delete(k!);
      else jar.set(k!, v!);
    }
    return res;
  };
  return {
    jar,
    get: send,
    /** GETs `page`, then posts `fields` (plus its CSRF token) to `action`. */
    async submit(page: string, action: string, fields: Record<string, string | string[]>) {
      const html = await (await send(page)).text();
      const body = new URLSearchParams({ _csrf: csrfOf(html) });
      for (const [k, v] of Object.entries(fields)) for (const x of [v].flat()) body.append(k, x);
      return send(action, { method: "POST", body });
    },
  };
}
