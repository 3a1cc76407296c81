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

/** XML text → plain object (attributes as `@_name`, text beside attributes as `#text`). */
export function decodeXml(platform: string, body: string): unknown {
  const text = body.replace(/^\uFEFF/, "");
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
