/**
 * Plain-text output: an aligned table, status colours, and the rule for when colour is on
 * (a terminal, no `NO_COLOR`, no `--no-color`).
 * @module
 */
import type { StatusLevel } from "../../domain/status.ts";

/** ANSI colours the client uses. */
export type Colour = "green" | "blue" | "yellow" | "magenta" | "red" | "gray" | "bold";

const SGR: Record<Colour, string> = {
  green: "32",
  blue: "34",
  yellow: "33",
  magenta: "35",
  red: "31",
  gray: "90",
  bold: "1",
};

/** A table cell: plain text, or text with a colour used only when colour is on. */
export type Cell = string | { readonly text: string; readonly colour?: Colour };

/**
 * True when output should be coloured: stdout is a terminal, `NO_COLOR` is unset or empty
 * (https://no-color.org), and `--no-color` was not given.
 */
export function colourEnabled(
  isTerminal: boolean,
  env: Readonly<Record<string, string | undefined>>,
  noColorFlag: boolean,
): boolean {
  return isTerminal && !env.NO_COLOR && !noColorFlag;
}

/** `text` wrapped in the SGR codes of `colour` when `on`. */
export function paint(text: string, colour: Colour | undefined, on: boolean): string {
  return on && colour ? `\x1b[${SGR[colour]}m${text}\x1b[0m` : text;
}

/** Colour of each status level. */
export const LEVEL_COLOUR: Readonly<Record<StatusLevel, Colour>> = {
  OPERATIONAL: "green",
  UNDER_MAINTENANCE: "blue",
  DEGRADED_PERFORMANCE: "yellow",
  PARTIAL_OUTAGE: "magenta",
  MAJOR_OUTAGE: "red",
  UNKNOWN: "gray",
};

/** A status as a coloured cell. */
export function levelCell(level: StatusLevel): Cell {
  return { text: level, colour: LEVEL_COLOUR[level] };
}

function textOf(cell: Cell): string {
  return typeof cell === "string" ? cell : cell.text;
}

/**
 * Rows under a header, each column padded to its widest cell (two spaces between columns,
 * no trailing spaces). Widths are measured on the plain text, so colour never shifts them.
 */
export function renderTable(
  header: readonly string[],
  rows: readonly (readonly Cell[])[],
  colour: boolean,
): string {
  const widths = header.map((h, i) =>
    Math.max(h.length, ...rows.map((r) => [...textOf(r[i] ?? "")].length))
  );
  const line = (cells: readonly Cell[], head: boolean) =>
    cells.map((cell, i) => {
      const text = textOf(cell);
      const pad = i === cells.length - 1 ? "" : " ".repeat(widths[i]! - [...text].length);
      const c = head ? "bold" : typeof cell === "string" ? undefined : cell.colour;
      return paint(text, c, colour) + pad;
    }).join("  ").trimEnd();
  return [line(header, true), ...rows.map((r) => line(r, false))].join("\n");
}

/** A percentage with three decimals (`99.954%`), or `-` when nothing was observed. */
export function percent(value: number | null): string {
  return value === null ? "-" : `${value.toFixed(3)}%`;
}

/** Minutes as `45m`, `3h 05m` or `2d 4h`; `-` when there is no figure. */
export function duration(minutes: number | null): string {
  if (minutes === null) return "-";
  const m = Math.round(minutes);
  if (m < 60) return `${m}m`;
  if (m < 24 * 60) return `${Math.floor(m / 60)}h ${String(m % 60).padStart(2, "0")}m`;
  return `${Math.floor(m / 1440)}d ${Math.floor((m % 1440) / 60)}h`;
}

/** An ISO timestamp as `YYYY-MM-DD HH:MM` UTC; `-` for none. */
export function when(iso: string | null): string {
  if (!iso) return "-";
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : d.toISOString().slice(0, 16).replace("T", " ");
}
