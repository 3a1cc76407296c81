/**
 * Vendor text made safe for XML 1.0 and iCalendar: characters those formats forbid (most C0
 * controls, U+FFFE, U+FFFF, unpaired surrogates) are dropped. Vendors' pages sometimes carry
 * them, and one is enough to make a whole feed unreadable to a strict parser.
 * @module
 */

// Matching control characters is the point here.
const FORBIDDEN = new RegExp(
  String
    .raw`[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]`,
  "g",
);

/** `text` without the characters XML 1.0 forbids. */
export function xmlSafe(text: string): string {
  return text.replace(FORBIDDEN, "");
}
