/**
 * Why the store could not be reached, in one short line for a person: the driver's and the
 * system's codes in words (refused, unknown host, wrong password, no such database…), else the
 * error's own message on one line. Never a stack; no password (drivers never echo it).
 * @module
 */

/** A driver or file error as one short line (no stack, no password: drivers never echo it). */
export function reasonOf(err: unknown): string {
  const e = err as { code?: unknown; message?: unknown; errors?: unknown };
  if (Array.isArray(e.errors) && e.errors.length > 0) return reasonOf(e.errors[0]);
  const message = typeof e.message === "string" && e.message !== "" ? e.message : String(err);
  const code = typeof e.code === "string" ? e.code : "";
  const known: Record<string, string> = {
    ECONNREFUSED: "connection refused (is PostgreSQL running and listening there?)",
    ENOTFOUND: "host not found",
    EAI_AGAIN: "host not found (DNS lookup failed)",
    CONNECT_TIMEOUT: "no answer within 10 s",
    "28P01": "password authentication failed",
    "28000": "the server refused this user",
    "3D000": "no such database",
  };
  const line = known[code] ?? message;
  return line.replace(/(?<!\s)\s*\n\s*/g, " ").slice(0, 300);
}
