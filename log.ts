/**
 * A tiny JSON-lines logger on stderr. Fields named like secrets are redacted.
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

/** Replaces the values of secret-looking fields with "[redacted]". */
export function redact(fields: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(fields)) out[k] = SECRET.test(k) ? "[redacted]" : v;
  return out;
}

/** A logger writing lines at or above `level` to `write` (stderr by default). */
export function createLogger(
  level: LogLevel = "info",
  write: (line: string) => void = (line) => console.error(line),
): Logger {
  const at = (l: LogLevel) => (msg: string, fields: Record<string, unknown> = {}) => {
    if (ORDER[l] < ORDER[level]) return;
    write(JSON.stringify({ t: new Date().toISOString(), level: l, msg, ...redact(fields) }));
  };
  return { debug: at("debug"), info: at("info"), warn: at("warn"), error: at("error") };
}

/** A logger that drops everything (tests). */
export const silentLogger: Logger = createLogger("error", () => {});
