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

/**
 * `May 28, 21:24 UTC`, `Nov  7, 07:01 EST`, `May 13, 2017, 06:45:12 UTC`, `Nov 28, 2026 at
 * 10:02 AM GMT+0`, `28 Nov 2026 10:02 UTC`: month and day either way round, an optional year,
 * `at`, seconds, a 12-hour clock and a zone (a name, `GMT+1`, `+05:30`).
 */
const WALL =
  /^(?:([A-Za-z]{3,9})\.?\s+(\d{1,2})(?:st|nd|rd|th)?|(\d{1,2})\s+([A-Za-z]{3,9})\.?),?\s*(?:(\d{4}),?\s*)?(?:at\s+)?(\d{1,2}):(\d{2})(?::(\d{2}))?\s*([AaPp][Mm])?\s*(\S+)?$/;

/**
 * A wall-clock date as status pages print it (see {@link WALL}) → instant; the year, when
 * absent, is the one closest to `reference`. An unknown zone name is reported and read as UTC.
 */
export function parseWallDate(text: string, reference: EpochMs, report?: Report): EpochMs | null {
  const clean = text.replace(/\s+/g, " ").trim();
  const m = WALL.exec(clean);
  if (!m) return parseFeedDate(clean);
  const month = monthIndex(m[1] ?? m[4]!);
  if (month === null) return null;
  let offset = zoneOffset(m[10] ?? "UTC");
  if (offset === null) {
    report?.("time zone", m[10]!);
    offset = 0;
  }
  let hour = Number(m[6]);
  if (m[9]) hour = hour % 12 + (m[9].toLowerCase() === "pm" ? 12 : 0);
  if (hour > 23 || Number(m[7]) > 59) return null;
  return resolveWallClock({
    month,
    day: Number(m[2] ?? m[3]),
    year: m[5] ? Number(m[5]) : null,
    hour,
    minute: Number(m[7]),
    second: m[8] ? Number(m[8]) : 0,
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

/** The labels a plain-text timeline starts an entry with. */
const TEXT_LABEL =
  /^(investigating|identified|update|monitoring|resolved|postmortem|scheduled|in progress|verifying|completed)(.*)$/i;

/**
 * A line that opens a timeline entry: a label alone, or followed by a separator
 * (`Resolved - …`, `Resolved: …`), never a word that merely opens a sentence.
 */
function entryLine(line: string): { label: string; rest: string } | null {
  const m = TEXT_LABEL.exec(line);
  if (!m) return null;
  const after = m[2]!.trimStart();
  if (after === "") return { label: m[1]!, rest: "" };
  return "-–—:|".includes(after[0]!) ? { label: m[1]!, rest: after.slice(1).trim() } : null;
}

/** Where a printed date may begin: a day before a month name, or a month name. */
const DATE_START = /\d{1,2} [A-Za-z]{3,9}|[A-Za-z]{3,9}/g;
/** ISO 8601 with a zone, anywhere in a line. */
const ISO_RUN = /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})/;

/**
 * The longest run of words from the start of `text` (ten at most) that reads as a wall-clock
 * date, or null.
 */
function wallDateAt(
  text: string,
  reference: EpochMs,
  report?: Report,
): { at: EpochMs; text: string } | null {
  const words = text.split(" ").slice(0, 10);
  for (let n = words.length; n >= 3; n--) {
    const run = trimEnd(words.slice(0, n).join(" "), ".,;)]");
    // Only a run with a clock in it, so a bare month name never reads as a date.
    if (!/\d:\d\d/.test(run)) continue;
    const at = parseWallDate(run, reference, n === words.length ? report : undefined);
    if (at !== null) return { at, text: run };
  }
  return null;
}

/** The first date a line of text holds, with the text it was read from; null when none. */
function dateIn(
  line: string,
  reference: EpochMs,
  report?: Report,
): { at: EpochMs; text: string } | null {
  const flat = line.replace(/\s+/g, " ");
  const iso = ISO_RUN.exec(flat);
  if (iso) {
    const at = parseWallDate(iso[0], reference);
    if (at !== null) return { at, text: iso[0] };
  }
  for (const m of flat.matchAll(DATE_START)) {
    if (m.index > 0 && /[A-Za-z0-9]/.test(flat[m.index - 1]!)) continue;
    if (monthIndex(m[0].replace(/^\d+ /, "")) === null) continue;
    const found = wallDateAt(flat.slice(m.index), reference, report);
    if (found) return found;
  }
  return null;
}

/** `text` without any of `chars` at its end. */
function trimEnd(text: string, chars: string): string {
  let end = text.length;
  while (end > 0 && chars.includes(text[end - 1]!)) end--;
  return text.slice(0, end);
}

/** `text` without the date printed in it (and the brackets or separator around it). */
function withoutDate(text: string, date: string): string {
  const rest = text.replace(/\s+/g, " ").replace(date, "").replace(/\(\s*\)|\[\s*\]/g, "");
  let start = 0;
  const separators = "-–—:|, ";
  while (start < rest.length && separators.includes(rest[start]!)) start++;
  return trimEnd(rest.slice(start), separators);
}

/**
 * A timeline written as text, whatever generated it: entries open with a status label (see
 * {@link entryLine}), and each has a date on its own line, on the line before it (Statuspage's
 * order) or after it, before the next entry (Instatus, Better Stack, Cachet and status.io
 * print the date after the text). Which way round is judged once per timeline, from its first
 * entry.
 */
export function textUpdates(text: string, reference: EpochMs, report?: Report): RawUpdate[] {
  const lines = text.split("\n").map((l) => l.trim()).filter((l) => l !== "");
  const entries: { i: number; label: string; rest: string }[] = [];
  lines.forEach((line, i) => {
    const e = entryLine(line);
    if (e) entries.push({ i, ...e });
  });
  if (entries.length === 0) return [];
  const dates = lines.map((l) => dateIn(l, reference, report));
  // A line that is little more than its date belongs to no entry's text.
  const dateLine = (i: number) => dates[i] !== null && lines[i]!.length <= 60;
  const isEntry = new Set(entries.map((e) => e.i));
  const before = entries[0]!.i > 0 && dateLine(entries[0]!.i - 1);
  const out: RawUpdate[] = [];
  entries.forEach((e, k) => {
    const next = entries[k + 1]?.i ?? lines.length;
    const own = dates[e.i];
    let at = own?.at ?? null;
    if (at === null && before && e.i > 0 && !isEntry.has(e.i - 1)) {
      at = dates[e.i - 1]?.at ?? null;
    }
    if (at === null) {
      for (let j = e.i + 1; j < next && at === null; j++) at = dates[j]?.at ?? null;
    }
    if (at === null) {
      report?.("timeline date", lines[e.i]!);
      return;
    }
    const body = [own ? withoutDate(e.rest, own.text) : e.rest];
    for (let j = e.i + 1; j < next; j++) if (!dateLine(j)) body.push(lines[j]!);
    out.push({ at, label: e.label, body: body.filter((b) => b !== "").join("\n") });
  });
  return out;
}

/**
 * HTML that was escaped twice (`&lt;p&gt;` inside `content:encoded`) reads as text the first
 * time; such a fragment, with no tag of its own, is decoded once more.
 */
function unescapedTwice(html: string): string {
  return !/<[a-z!/]/i.test(html) && /&lt;\/?[a-z]/i.test(html) ? decodeEntities(html) : html;
}

/** Reads the embedded HTML of one feed entry; `reference` anchors year-less dates. */
export function readFeedHtml(raw: string, reference: EpochMs, report?: Report): FeedHtml {
  const html = unescapedTwice(raw);
  const small = smallStrongUpdates(html, reference, report);
  const headed = small.length > 0 ? small : headedUpdates(html);
  const updates = headed.length > 0 ? headed : textUpdates(htmlToText(html), reference, report);
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
