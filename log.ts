/**
 * A tiny JSON-lines logger on stderr. Fields named like secrets are redacted, and every field
 * value is bounded: a vendor (or caller) controls many of the strings logged, so one line never
 * carries more than {@link MAX_FIELD_CHARS} characters of any field.
 * @module
 */

/** Log levels, least to most severe. */
export type LogLevel = "debug" | "info" | "warn" | "error";
const ORDER: Record<LogLevel, number> = { debug: 0, info: 1, warn: 2, error: 3 };
const SECRET = /(key|secret|token|password|authorization|cookie|verifier|code)$/i;

/** Structured logger. */
export interface Logger {
  debug(msg: string, fields?: Record<string, unknown>): void;
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
}

/** The most characters one field value takes in a log line (longer ones are cut). */
export const MAX_FIELD_CHARS = 1000;

/** A value as logged: strings and serialised objects longer than the cap are cut. */
function bounded(value: unknown): unknown {
  if (typeof value === "string") return cut(value);
  if (value === null || typeof value !== "object") return value;
  let text: string | undefined;
  try {
    text = JSON.stringify(value);
  } catch {
    return cut(String(value));
  }
  return text !== undefined && text.length > MAX_FIELD_CHARS ? cut(text) : value;
}

function cut(text: string): string {
  return text.length <= MAX_FIELD_CHARS
    ? text
    : `${text.slice(0, MAX_FIELD_CHARS)}… (${text.length} characters)`;
}

/** Replaces the values of secret-looking fields with "[redacted]" and bounds the others. */
export function redact(fields: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(fields)) out[k] = SECRET.test(k) ? "[redacted]" : bounded(v);
  return out;
}

/** A logger writing lines at or above `level` to `write` (stderr by default). */
export function createLogger(
  level: LogLevel = "info",
  write: (line: string) => void = (line) => console.error(line),
): Logger {
  const at = (l: LogLevel) => (msg: string, fields: Record<string, unknown> = {}) => {
    if (ORDER[l] < ORDER[level]) return;
    write(
      JSON.stringify({ t: new Date().toISOString(), level: l, msg: cut(msg), ...redact(fields) }),
    );
  };
  return { debug: at("debug"), info: at("info"), warn: at("warn"), error: at("error") };
}

/** A logger that drops everything (tests). */
export const silentLogger: Logger = createLogger("error", () => {});
