/**
 * XML decoding for RSS/Atom adapters (fast-xml-parser) and a zod type for text nodes.
 * @module
 */
import { XMLParser, XMLValidator } from "fast-xml-parser";
import { z } from "zod";
import { UndecodableError } from "./adapter.ts";

/** Elements that may repeat in RSS 2.0 and Atom: always arrays after decoding. */
const REPEATED = new Set(["item", "entry", "category", "link"]);

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: "@_",
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: true,
  processEntities: true,
  htmlEntities: false,
  isArray: (name) => REPEATED.has(name),
});

/**
 * Entries (`<item>`, `<entry>`) of a feed that are decoded; later ones are cut before parsing.
 * Parsing costs about 40 µs per entry on the event loop, and a reading keeps at most 250
 * incidents anyway (domain READING_LIMITS), newest first as feeds list them.
 */
export const MAX_FEED_ENTRIES = 1_000;

/** `text` without the entries after the first `max` (the closing tags after them are kept). */
export function firstEntries(text: string, max: number): string {
  const closing = /<\/(item|entry)\s*>/gi;
  let count = 0;
  for (let m = closing.exec(text); m !== null; m = closing.exec(text)) {
    if (++count < max) continue;
    const end = m.index + m[0].length;
    const lower = text.toLowerCase();
    const tail = Math.max(lower.lastIndexOf("</channel"), lower.lastIndexOf("</feed"));
    return tail > end ? text.slice(0, end) + text.slice(tail) : text;
  }
  return text;
}

/** XML text → plain object (attributes as `@_name`, text beside attributes as `#text`). */
export function decodeXml(platform: string, body: string): unknown {
  const text = firstEntries(body.replace(/^\uFEFF/, ""), MAX_FEED_ENTRIES);
  if (!text.trimStart().startsWith("<")) {
    throw new UndecodableError(platform, `not XML; starts "${text.trimStart().slice(0, 40)}"`);
  }
  const valid = XMLValidator.validate(text);
  if (valid !== true) {
    const { msg, line } = valid.err;
    throw new UndecodableError(platform, `malformed XML at line ${line}: ${msg}`);
  }
  return parser.parse(text);
}

/** A text-bearing element: plain text, or an object whose `#text` sits beside attributes. */
export const xmlText = z.union([
  z.string(),
  z.number().transform(String),
  z.looseObject({ "#text": z.union([z.string(), z.number()]).optional() }).transform((o) =>
    o["#text"] === undefined ? "" : String(o["#text"])
  ),
]);

/** Atom `<link>`: an href with an optional rel (RSS writes links as plain text). */
export const xmlLink = z.union([
  z.string(),
  z.looseObject({ "@_href": z.string(), "@_rel": z.string().optional() }),
]);
