/**
 * Helpers the commands share: fetching several vendors at once and the exit-code help lines.
 * @module
 */

/**
 * Runs `read` for each distinct slug in parallel and returns the results in order. When any
 * read fails, the failure of the first slug (in the order given) is thrown.
 */
export async function forEachSlug<T>(
  slugs: readonly string[],
  read: (slug: string) => Promise<T>,
): Promise<T[]> {
  const distinct = [...new Set(slugs)];
  const settled = await Promise.allSettled(distinct.map(read));
  const failed = settled.find((s) => s.status === "rejected");
  if (failed) throw failed.reason;
  return settled.map((s) => (s as PromiseFulfilledResult<T>).value);
}

/** The exit-code lines every command's help ends with. */
export const EXIT_HELP = `Exit codes:
  0  ok: every vendor asked about is operational (check: below the --fail-on level)
  1  a vendor asked about is not operational (check: at or above the --fail-on level)
  2  usage error, or a vendor the catalog does not know (with "did you mean …")
  3  the API could not be reached or answered with an error`;

/** The options every command accepts, for the help texts. */
export const GLOBAL_HELP = `Global options:
  --api <url>      statusd API (default $STATUS_API_URL or http://localhost:8080)
  --json           machine-readable JSON on stdout (fields listed above)
  --no-color       no colour (also when NO_COLOR is set or stdout is not a terminal)
  --timeout <s>    per-request timeout in seconds (default 10; one retry on a network error)
  -h, --help       this help
  STATUS_API_KEY   sent as X-API-Key when set (no key is needed for these commands)`;
