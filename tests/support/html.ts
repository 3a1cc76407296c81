/**
 * Reading rendered pages in tests without a browser: the text a reader sees, entities decoded,
 * and the cells of a 90-day bar.
 * @module
 */

/** Decodes the few entities hono/jsx writes. */
export function decode(text: string): string {
  return text.replaceAll("&#39;", "'").replaceAll("&quot;", '"').replaceAll("&lt;", "<")
    .replaceAll("&gt;", ">").replaceAll("&amp;", "&");
}

/** The page's text with tags removed and entities decoded (what a reader sees). */
export function visibleText(html: string): string {
  return decode(
    html.replace(/<script[\s\S]*?<\/script>/g, "").replace(/<[^>]+>/g, " "),
  ).replace(/\s+/g, " ").replace(/ ([,.;:)])/g, "$1");
}

/** One cell of a day bar. */
export interface BarCell {
  readonly date: string;
  /** The `s-…` class: the day's worst level. */
  readonly level: string;
  /** Its tooltip (also its accessible text). */
  readonly title: string;
}

/** The cells of the bar whose `aria-label` starts with `label`, in page order. */
export function barCells(html: string, label: string): BarCell[] {
  const at = html.indexOf(`aria-label="${label}`);
  if (at < 0) throw new Error(`no bar labelled ${label}`);
  const bar = html.slice(at, html.indexOf("</ol>", at));
  return [...bar.matchAll(/<li class="s-([A-Z_]+)" data-date="([\d-]+)" title="([^"]*)"/g)]
    .map((m) => ({ level: m[1]!, date: m[2]!, title: decode(m[3]!) }));
}

/** The section of the page under the `<h2 id=…>` with this id (up to the next section). */
export function section(html: string, id: string): string {
  const at = html.indexOf(`<section aria-labelledby="${id}">`);
  if (at < 0) throw new Error(`no section ${id}`);
  return html.slice(at, html.indexOf("</section>", at));
}
