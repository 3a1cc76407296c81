/**
 * Command-line parsing for the `status` client: a small tokenizer (`--flag`, `--flag value`,
 * `--flag=value`), the global options every command shares, and the zod schemas that turn
 * words into typed options. The only environment it reads is `STATUS_API_URL` and
 * `STATUS_API_KEY` (passed in as a record, so tests need no `Deno.env`).
 * @module
 */
import { z } from "zod";
import { STATUS_LEVELS } from "../../domain/status.ts";
import { unknownFlagMessage } from "../../domain/suggest.ts";
import type { RankedLevel } from "../../domain/status.ts";
import type { StatusClient } from "./client.ts";
import { type ExitCode, UsageError } from "./exit.ts";

/** A flag takes no value (`boolean`) or exactly one (`string`). */
export type FlagKind = "boolean" | "string";

/** Flags a command accepts, by long name (without `--`). */
export type FlagSpec = Readonly<Record<string, FlagKind>>;

/** Words split into positionals and flags (boolean flags are `true`, others their value). */
export interface Tokens {
  readonly positionals: string[];
  readonly flags: Record<string, string | true>;
}

/** Flags every command accepts. */
export const GLOBAL_FLAGS: FlagSpec = {
  api: "string",
  json: "boolean",
  help: "boolean",
  "no-color": "boolean",
  timeout: "string",
};

/** Default API address when neither `--api` nor `STATUS_API_URL` is given. */
export const DEFAULT_API_URL = "http://localhost:8080";

/**
 * Splits `argv` by `spec`. `-h` means `--help`; `--` ends the flags. Unknown flags (named,
 * with the closest known one suggested) and a missing value are usage errors.
 */
export function tokenize(argv: readonly string[], spec: FlagSpec): Tokens {
  const positionals: string[] = [];
  const flags: Record<string, string | true> = {};
  for (let i = 0; i < argv.length; i++) {
    const word = argv[i]!;
    if (word === "--") {
      positionals.push(...argv.slice(i + 1));
      break;
    }
    if (word === "-h") {
      flags.help = true;
      continue;
    }
    if (!word.startsWith("-") || word === "-") {
      positionals.push(word);
      continue;
    }
    const eq = word.indexOf("=");
    const name = word.slice(2, eq < 0 ? undefined : eq);
    const kind = word.startsWith("--") ? spec[name] : undefined;
    if (!kind) {
      throw new UsageError(
        unknownFlagMessage(word.slice(0, eq < 0 ? undefined : eq), Object.keys(spec)),
      );
    }
    if (kind === "boolean") {
      if (eq >= 0) throw new UsageError(`Option "--${name}" takes no value`);
      flags[name] = true;
      continue;
    }
    const value = eq >= 0 ? word.slice(eq + 1) : argv[++i];
    if (value === undefined || (eq < 0 && value.startsWith("--"))) {
      throw new UsageError(`Option "--${name}" needs a value`);
    }
    flags[name] = value;
  }
  return { positionals, flags };
}

/**
 * The first zod issue as one line, naming the option it is about (`names` renames a key;
 * an empty name leaves the message alone, for messages that quote the value themselves).
 */
export function usageMessage(error: z.ZodError, names: Record<string, string> = {}): string {
  const issue = error.issues[0]!;
  const key = String(issue.path[0] ?? "");
  const what = names[key] ?? (key ? `--${key}` : "arguments");
  return what ? `Cannot use ${what}: ${issue.message}` : issue.message;
}

/** Parses `input` with `schema`, turning a failure into a one-line usage error. */
export function parseWith<T>(
  schema: z.ZodType<T>,
  input: unknown,
  names: Record<string, string> = {},
): T {
  const result = schema.safeParse(input);
  if (!result.success) throw new UsageError(usageMessage(result.error, names));
  return result.data;
}

/** A vendor slug as the catalog spells it (lower-cased from what was typed). */
export const SlugSchema = z.string()
  .transform((s) => s.trim().toLowerCase())
  .pipe(
    z.string().regex(/^[a-z0-9][a-z0-9._-]*$/, {
      error: (issue) =>
        `"${String(issue.input)}" is not a vendor slug: expected letters, digits, "-", "." ` +
        `or "_", such as github`,
    }),
  );

/** One or more slugs from the positional words. */
export const SlugsSchema = z.array(SlugSchema).min(1, "Name at least one vendor slug");

/** Short names for `--fail-on`; the full enum names are accepted too. */
export const LEVEL_ALIASES: Readonly<Record<string, RankedLevel>> = {
  maintenance: "UNDER_MAINTENANCE",
  degraded: "DEGRADED_PERFORMANCE",
  partial: "PARTIAL_OUTAGE",
  major: "MAJOR_OUTAGE",
};

/** A `--fail-on` value: an alias or an enum name (any case, `-` or `_`), never OPERATIONAL. */
export const FailOnSchema = z.string().transform((raw, ctx): RankedLevel => {
  const word = raw.trim().toLowerCase().replaceAll("-", "_");
  const level = LEVEL_ALIASES[word] ??
    STATUS_LEVELS.slice(1).find((l) => l.toLowerCase() === word);
  if (level) return level;
  ctx.addIssue({
    code: "custom",
    message: `"${raw}" is not a level: expected maintenance, degraded, partial or major ` +
      `(or UNDER_MAINTENANCE, DEGRADED_PERFORMANCE, PARTIAL_OUTAGE, MAJOR_OUTAGE)`,
  });
  return z.NEVER;
});

/** Options every command shares, resolved from flags and the environment. */
export interface GlobalOptions {
  /** API base URL without a trailing slash. */
  readonly apiUrl: string;
  /** Sent as `X-API-Key` when set. */
  readonly apiKey: string | undefined;
  readonly json: boolean;
  readonly help: boolean;
  readonly noColor: boolean;
  /** Per-request timeout in milliseconds. */
  readonly timeoutMs: number;
}

const GlobalSchema = z.object({
  api: z.url({ protocol: /^https?$/, error: "expected an http(s) URL" })
    .transform((u) => u.replace(/(?<!\/)\/+$/, "")),
  key: z.string().optional(),
  json: z.boolean(),
  help: z.boolean(),
  "no-color": z.boolean(),
  timeout: z.coerce.number({ error: "expected a number of seconds" })
    .positive("expected a positive number of seconds")
    .max(600, "expected at most 600 seconds"),
});

/** Resolves the global options from `flags` and `STATUS_API_URL` / `STATUS_API_KEY`. */
export function parseGlobal(
  flags: Tokens["flags"],
  env: Readonly<Record<string, string | undefined>>,
): GlobalOptions {
  const fromEnv = !flags.api && env.STATUS_API_URL;
  const g = parseWith(GlobalSchema, {
    api: flags.api ?? (env.STATUS_API_URL || DEFAULT_API_URL),
    key: env.STATUS_API_KEY || undefined,
    json: flags.json === true,
    help: flags.help === true,
    "no-color": flags["no-color"] === true,
    timeout: flags.timeout ?? "10",
  }, fromEnv ? { api: "STATUS_API_URL" } : {});
  return {
    apiUrl: g.api,
    apiKey: g.key,
    json: g.json,
    help: g.help,
    noColor: g["no-color"],
    timeoutMs: Math.round(g.timeout * 1000),
  };
}

/** What a command gets to do its work. */
export interface Context {
  readonly client: StatusClient;
  readonly global: GlobalOptions;
  /** Colour on (a terminal without NO_COLOR and without --no-color, and not --json). */
  readonly colour: boolean;
  /** Writes one block of text to stdout (a newline is added). */
  readonly print: (text: string) => void;
}

/** One `status` subcommand: its flags, help text, option parsing and run. */
export interface Command<O> {
  readonly name: string;
  /** One line for `status --help`. */
  readonly summary: string;
  /** Full text for `status <name> --help`. */
  readonly help: string;
  readonly flags: FlagSpec;
  /** Validates positionals and flags into options (throws UsageError). */
  parse(tokens: Tokens): O;
  /** Runs and returns the exit code. */
  run(options: O, ctx: Context): Promise<ExitCode>;
}
