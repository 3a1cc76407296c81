/**
 * Reading the HTML that status feeds embed in `<description>` / `<content>`: plain text, the
 * update timeline, a `Status:` / `Severity:` header and a scheduled window.
 * @module
 */
import type { EpochMs } from "../../domain/mod.ts";
import { monthIndex, parseFeedDate, resolveWallClock, zoneOffset } from "./_feed_time.ts";

const ENTITIES: Readonly<Record<string, string>> = {
  amp: "&",
  lt: "<",
  gt: ">",
  quot: '"',
  apos: "'",
  nbsp: " ",
  ndash: "–",
  mdash: "—",
  rsquo: "’",
  lsquo: "‘",
  rdquo: "”",
  ldquo: "“",
  hellip: "…",
};

/** Decodes named (common) and numeric character references. */
export function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, ref: string) => {
    if (ref[0] === "#") {
      const code = ref[1] === "x" || ref[1] === "X"
        ? parseInt(ref.slice(2), 16)
        : parseInt(ref.slice(1), 10);
      return Number.isFinite(code) && code > 0 && code <= 0x10ffff
        ? String.fromCodePoint(code)
        : whole;
    }
    return ENTITIES[ref.toLowerCase()] ?? whole;
  });
}

/** HTML fragment → readable text: block ends and `<br>` become newlines, tags go, spaces collapse. */
export function htmlToText(html: string): string {
  const text = html
    .replace(/<br\s*\/?>/gi, "\n")
    .replace(/<\/(p|div|li|h\d|tr)>/gi, "\n")
    .replace(/<[^<>]*>/g, "");
  return decodeEntities(text)
    .split("\n")
    .map((line) => line.replace(/[ \t\u00a0]+/g, " ").trim())
    .join("\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}

/** One timeline entry as printed: its instant, the raw label (`Investigating`) and the text. */
export interface RawUpdate {
  readonly at: EpochMs;
  readonly label: string;
  readonly body: string;
}

/** What the embedded HTML says, before any mapping. */
export interface FeedHtml {
  /** Timeline in document order (feeds print it newest first). */
  readonly updates: readonly RawUpdate[];
  /** `Status: X` heading (xAI, incident.io feeds), raw. */
  readonly status: string | null;
  /** `Severity: X` line, raw. */
  readonly severity: string | null;
  /** `THIS IS A SCHEDULED EVENT start - end` (Statuspage maintenances). */
  readonly window: { readonly start: EpochMs; readonly end: EpochMs } | null;
}

/** Reports a value the reader cannot place (zone names, dates). */
type Report = (field: string, value: string) => void;

const WALL = /^([A-Za-z]{3,9})\.?\s+(\d{1,2}),?\s*(?:(\d{4}),?\s*)?(\d{1,2}):(\d{2})\s*(\S+)?$/;

/**
 * `May 28, 21:24 UTC`, `Nov  7, 07:01 EST`, `May 13, 2017, 06:45 UTC` → instant; the year, when
 * absent, is the one closest to `reference`. An unknown zone name is reported and read as UTC.
 */
export function parseWallDate(text: string, reference: EpochMs, report?: Report): EpochMs | null {
  const m = WALL.exec(text.replace(/\s+/g, " ").trim());
  if (!m) return parseFeedDate(text);
  const month = monthIndex(m[1]!);
  if (month === null) return null;
  let offset = zoneOffset(m[6] ?? "UTC");
  if (offset === null) {
    report?.("time zone", m[6]!);
    offset = 0;
  }
  return resolveWallClock({
    month,
    day: Number(m[2]),
    year: m[3] ? Number(m[3]) : null,
    hour: Number(m[4]),
    minute: Number(m[5]),
    offsetMinutes: offset,
  }, reference);
}

/** Statuspage / LambStatus: `<small>date</small><br><strong>Label</strong> - text`. */
function smallStrongUpdates(html: string, reference: EpochMs, report?: Report): RawUpdate[] {
  const out: RawUpdate[] = [];
  const parts = html.split(/<small>/i).slice(1);
  for (const part of parts) {
    const m = smallStrong(part);
    if (!m) continue;
    const when = htmlToText(m[0]);
    const at = parseWallDate(when, reference, report);
    if (at === null) {
      report?.("timeline date", when);
      continue;
    }
    const body = htmlToText(m[2]).replace(/^[-–]\s*/, "");
    out.push({ at, label: htmlToText(m[1]), body });
  }
  return out;
}

/**
 * `date</small> <br> <strong>label</strong> text` → `[date, label, text]`, or null. Read with
 * searches for fixed tags rather than one pattern, so its cost stays linear in the part's size.
 */
function smallStrong(part: string): [string, string, string] | null {
  const close = part.search(/<\/small>/i);
  if (close < 0) return null;
  let rest = part.slice(close + "</small>".length).trimStart();
  const br = /^<br\s*\/?>/i.exec(rest);
  if (br) rest = rest.slice(br[0].length).trimStart();
  if (!/^<strong>/i.test(rest)) return null;
  rest = rest.slice("<strong>".length);
  const end = rest.search(/<\/strong>/i);
  if (end < 0) return null;
  return [part.slice(0, close), rest.slice(0, end), rest.slice(end + "</strong>".length)];
}

/** xAI-style blocks: `<p><strong>RFC 822 date</strong></p><h3>Label</h3><p>text</p>`. */
function headedUpdates(html: string): RawUpdate[] {
  const out: RawUpdate[] = [];
  const strong = /<strong>([^<]+)<\/strong>/gi;
  for (let m = strong.exec(html); m !== null; m = strong.exec(html)) {
    let rest = html.slice(strong.lastIndex).trimStart();
    if (/^<\/p>/i.test(rest)) rest = rest.slice("</p>".length).trimStart();
    const heading = /^<h\d>([^<]+)<\/h\d>/i.exec(rest);
    if (!heading) continue;
    const after = html.length - rest.length + heading[0].length;
    const divAt = html.slice(after).search(/<\/?div>/i);
    const end = divAt < 0 ? html.length : after + divAt;
    strong.lastIndex = end;
    const at = parseFeedDate(decodeEntities(m[1]!.trim()));
    if (at === null) continue;
    out.push({ at, label: htmlToText(heading[1]!), body: htmlToText(html.slice(after, end)) });
  }
  return out;
}

/** Reads the embedded HTML of one feed entry; `reference` anchors year-less dates. */
export function readFeedHtml(html: string, reference: EpochMs, report?: Report): FeedHtml {
  const small = smallStrongUpdates(html, reference, report);
  const updates = small.length > 0 ? small : headedUpdates(html);
  const status = /<(h\d|b|strong)>\s*Status:([^<]*)<\/\1>/i.exec(html)?.[2]?.trim() || null;
  const severityMatch = /Severity:\s*([^<\n]+)/i.exec(html);
  const severity = severityMatch ? severityMatch[1]!.trim() : null;
  return { updates, status, severity, window: scheduledWindow(html, reference, report) };
}

function scheduledWindow(
  html: string,
  reference: EpochMs,
  report?: Report,
): FeedHtml["window"] {
  const at = html.search(/THIS IS A SCHEDULED EVENT/i);
  if (at < 0) return null;
  const start_ = at + "THIS IS A SCHEDULED EVENT".length;
  const close = html.slice(start_).search(/<\/strong>/i);
  if (close < 0) return null;
  const [from, to] = htmlToText(html.slice(start_, start_ + close)).split(/(?<!\s)\s+[-–]\s+/);
  if (from === undefined || to === undefined) return null;
  const start = parseWallDate(from, reference, report);
  const end = parseWallDate(to, reference, report);
  return start === null || end === null ? null : { start, end };
}
