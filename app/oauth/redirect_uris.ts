/**
 * Redirect URIs a client may register and how a presented one matches (RFC 8252).
 * @module
 */

const LOOPBACK_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]"]);
const FORBIDDEN_SCHEMES = new Set(["javascript:", "data:", "file:", "vbscript:", "blob:"]);

/** Why a redirect URI cannot be registered, or null when it can. */
export function redirectUriProblem(uri: string): string | null {
  let u: URL;
  try {
    u = new URL(uri);
  } catch {
    return `"${uri}" is not an absolute URI`;
  }
  if (uri.includes("#")) return `"${uri}" must not have a fragment`;
  if (u.username || u.password) return `"${uri}" must not carry user information`;
  if (FORBIDDEN_SCHEMES.has(u.protocol)) return `"${uri}" uses a scheme that is not allowed`;
  if (u.protocol === "http:" && !LOOPBACK_HOSTS.has(u.hostname)) {
    return `"${uri}": plain http is allowed only for localhost, 127.0.0.1 and [::1]`;
  }
  return null;
}

/**
 * Exact match, except that an `http` loopback redirect matches on any port (RFC 8252 §7.3).
 * Scheme, host, path and query must still be identical.
 */
export function redirectUriMatches(registered: string, presented: string): boolean {
  if (registered === presented) return true;
  let r: URL, p: URL;
  try {
    r = new URL(registered);
    p = new URL(presented);
  } catch {
    return false;
  }
  return r.protocol === "http:" && p.protocol === "http:" && LOOPBACK_HOSTS.has(r.hostname) &&
    r.hostname === p.hostname && r.pathname === p.pathname && r.search === p.search &&
    !presented.includes("#") && !p.username && !p.password;
}
