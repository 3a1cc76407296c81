/**
 * Boards on hosts of their own: a request whose host a public board names
 * (`status.example.com`, DNS pointed at this statusd) is served that board — its page at `/`,
 * its feeds, calendar, badge, embed and theme under their short names, the shared assets — and
 * nothing else of statusd (any other path is a 404). The rewritten request carries
 * {@link BOARD_HOST_HEADER}, which is stripped from every request that arrives with it.
 * @module
 */

/** Marks a request rewritten for a board's own host (its value: that host). */
export const BOARD_HOST_HEADER = "x-statusd-board-host";

/** Paths a board's host serves as the board's own: `/feed.atom` is `/b/{slug}/feed.atom`. */
const BOARD_FILES = new Set([
  "/feed.atom",
  "/feed.rss",
  "/calendar.ics",
  "/badge.json",
  "/embed",
  "/theme.css",
  "/subscribe",
  "/logo",
]);

/** Paths a board's host serves as they are (the stylesheet, icons). */
function shared(path: string): boolean {
  return path.startsWith("/assets/") || path === "/favicon.svg" || path === "/favicon.ico";
}

/** True for hosts that never name a board: IP addresses and single labels (`localhost`). */
function plainHost(host: string): boolean {
  return !host.includes(".") || /^[\d.]+$/.test(host) || host.startsWith("[");
}

/**
 * `req` as the app should see it: unchanged on statusd's own host (`ownHost`) and any host no
 * public board names (`slugOf`), else rewritten to the board's path and marked.
 */
export async function boardHostRequest(
  req: Request,
  ownHost: string,
  slugOf: (host: string) => Promise<string | null>,
): Promise<Request> {
  if (req.headers.has(BOARD_HOST_HEADER)) {
    const headers = new Headers(req.headers);
    headers.delete(BOARD_HOST_HEADER);
    req = new Request(req, { headers });
  }
  const url = new URL(req.url);
  const host = url.hostname.toLowerCase();
  if (host === ownHost || plainHost(host)) return req;
  const slug = await slugOf(host);
  if (slug === null) return req;
  const path = url.pathname;
  const board = `/b/${encodeURIComponent(slug)}`;
  url.pathname = path === "/"
    ? board
    : BOARD_FILES.has(path)
    ? `${board}${path}`
    : shared(path)
    ? path
    : `${board}/not-here`;
  const headers = new Headers(req.headers);
  headers.set(BOARD_HOST_HEADER, host);
  return new Request(url, { method: req.method, headers, body: req.body, signal: req.signal });
}
