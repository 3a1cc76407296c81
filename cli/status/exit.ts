/**
 * Exit codes of the `status` client and the one error type that carries them. Every failure
 * the client can meet becomes a {@link CliError}: `main.ts` prints its one-line message and
 * exits with its code, never a stack trace.
 * @module
 */

/** Exit codes (documented in `status --help` and docs/cli.md). */
export const EXIT = {
  /** Every vendor asked about is operational (or below the `--fail-on` level). */
  ok: 0,
  /** A vendor asked about is not operational (or at or above the `--fail-on` level). */
  notOperational: 1,
  /** Bad arguments, or a vendor the catalog does not know. */
  usage: 2,
  /** The API could not be reached, or it answered with an error. */
  apiUnreachable: 3,
} as const;

/** One of the {@link EXIT} values. */
export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/** A failure with a one-line message and the exit code it ends the run with. */
export class CliError extends Error {
  constructor(readonly exitCode: ExitCode, message: string) {
    super(message);
    this.name = new.target.name;
  }
}

/** Bad arguments: exit 2. */
export class UsageError extends CliError {
  constructor(message: string) {
    super(EXIT.usage, message);
  }
}

/** A vendor slug the API does not know: exit 2, with close matches when there are any. */
/** No board at that address (or a private one this key may not read): exit 2. */
export class UnknownBoard extends CliError {
  constructor(readonly slug: string) {
    super(
      EXIT.usage,
      `No board "${slug}" (a private board needs STATUS_API_KEY of its account, with monitors:read)`,
    );
  }
}

/** A slug the catalog does not know: exit 2, with close matches. */
export class UnknownVendor extends CliError {
  constructor(readonly slug: string, readonly suggestions: readonly string[]) {
    super(
      EXIT.usage,
      `Unknown vendor "${slug}"` +
        (suggestions.length
          ? `: did you mean ${suggestions.map((s) => `"${s}"`).join(", ")}?`
          : ": no close match in the catalog"),
    );
  }
}

/** The API could not be reached or answered with an error: exit 3. */
export class ApiFailure extends CliError {
  constructor(message: string) {
    super(EXIT.apiUnreachable, message);
  }
}

/** Exit code for an error body's `error` code (ARCHITECTURE §2.6: the CLI column). */
export function exitCodeOf(apiErrorCode: string): ExitCode {
  return apiErrorCode === "invalid_request" || apiErrorCode === "not_found" ||
      apiErrorCode === "page_unreadable"
    ? EXIT.usage
    : EXIT.apiUnreachable;
}
