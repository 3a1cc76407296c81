/**
 * URIs as RFC 3986 allows them, for links that leave statusd in alerts: vendors write URLs with
 * spaces, `|`, `<`, `>` or non-ASCII characters that a browser forgives but PagerDuty, Teams
 * and many parsers do not.
 * @module
 */

/** Characters RFC 3986 allows in a URI as they are (unreserved, reserved, and `%`). */
const ALLOWED = /[A-Za-z0-9\-._~:/?#[\]@!$&'()*+,;=%]/;

/**
 * `text` as an RFC 3986 URI: every other character percent-encoded as UTF-8 (a `%` not followed
 * by two hex digits too); one already percent-encoded is left as it is.
 * @example toUri("https://status.example.com/a|b>c d") → "https://status.example.com/a%7Cb%3Ec%20d"
 */
export function toUri(text: string): string {
  let out = "";
  const chars = [...text];
  for (let i = 0; i < chars.length; i++) {
    const ch = chars[i]!;
    if (ch === "%") {
      const next = chars.slice(i + 1, i + 3).join("");
      out += /^[0-9A-Fa-f]{2}$/.test(next) ? "%" : "%25";
    } else if (ALLOWED.test(ch)) out += ch;
    else {
      for (const byte of new TextEncoder().encode(ch)) {
        out += `%${byte.toString(16).toUpperCase().padStart(2, "0")}`;
      }
    }
  }
  return out;
}
