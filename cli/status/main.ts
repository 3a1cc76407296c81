/**
 * The `status` client: argv → command → exit code. Run from source with
 * `deno task cli <args>`, or as the bundled `dist/status.js` / compiled `dist/status`.
 * Every failure prints one line on stderr (`status: …`) and never a stack trace.
 * @module
 */
import {
  type Command,
  type Context,
  GLOBAL_FLAGS,
  type GlobalOptions,
  parseGlobal,
  tokenize,
} from "./args.ts";
import { createClient } from "./client.ts";
import { apiRoute, PROXY_VARIABLES } from "./proxy.ts";
import { checkCommand } from "./commands/check.ts";
import { gateCommand } from "./commands/gate.ts";
import { incidentsCommand } from "./commands/incidents.ts";
import { monitorsCommand } from "./commands/monitors.ts";
import { reportCommand } from "./commands/report.ts";
import { whichCommand } from "./commands/which.ts";
import { addCommand } from "./commands/add.ts";
import { statusCommand } from "./commands/status.ts";
import { uptimeCommand } from "./commands/uptime.ts";
import { CliError, EXIT, type ExitCode, UsageError } from "./exit.ts";
import { colourEnabled } from "./table.ts";
import { EXIT_HELP, GLOBAL_HELP } from "./commands/_shared.ts";

// deno-lint-ignore no-explicit-any -- each command validates its own options type
type AnyCommand = Command<any>;

/** The subcommands, in help order. */
export const COMMANDS: readonly AnyCommand[] = [
  statusCommand,
  incidentsCommand,
  uptimeCommand,
  checkCommand,
  gateCommand,
  monitorsCommand,
  reportCommand,
  whichCommand,
  addCommand,
];

/** `status --help`. */
export const HELP = `status: is a cloud or SaaS vendor up? A client of the statusd API.

Usage: status <command> [arguments] [options]
       status <slug>...              (same as: status status <slug>...)

Commands:
${COMMANDS.map((c) => `  ${c.name.padEnd(10)} ${c.summary}`).join("\n")}
  help       this help, or \`status help <command>\`

Examples:
  status github stripe
  status check github --fail-on partial && ./deploy.sh
  status gate github stripe --within 2h && ./deploy.sh
  status incidents --active --json
  status uptime cloudflare --days 90

${EXIT_HELP}

${GLOBAL_HELP}

\`status <command> --help\` shows a command's options and its JSON fields.`;

/** What the client needs from its surroundings (tests pass their own). */
export interface Io {
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly stdoutIsTerminal: boolean;
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  readonly fetch?: typeof fetch;
  /**
   * A fetch that ignores the proxy variables, for an API on this machine (a proxy cannot reach
   * it); the usual fetch when absent.
   */
  readonly directFetch?: typeof fetch;
}

/** Flags that take a value, in any command (so their value is not taken for a word). */
const VALUE_FLAGS = new Set(
  [GLOBAL_FLAGS, ...COMMANDS.map((c) => c.flags)].flatMap((spec) =>
    Object.entries(spec).filter(([, kind]) => kind === "string").map(([name]) => `--${name}`)
  ),
);

/** Index of the first word that is neither a flag nor a flag's value, or -1. */
function firstWord(argv: readonly string[]): number {
  for (let i = 0; i < argv.length; i++) {
    const w = argv[i]!;
    if (w === "--") return i + 1 < argv.length ? i + 1 : -1;
    if (!w.startsWith("-")) return i;
    if (VALUE_FLAGS.has(w)) i++;
  }
  return -1;
}

/** Picks the command: an explicit name, `help`, or `status` when the first word is a slug. */
function pickCommand(argv: readonly string[]): { command?: AnyCommand; rest: string[] } {
  const first = firstWord(argv);
  if (first < 0) return { rest: [...argv] };
  const word = argv[first]!;
  const rest = [...argv.slice(0, first), ...argv.slice(first + 1)];
  if (word === "help") {
    const topic = rest[firstWord(rest)];
    const command = COMMANDS.find((c) => c.name === topic);
    if (topic !== undefined && !command) throw new UsageError(`Unknown command "${topic}"`);
    return { command, rest: ["--help"] };
  }
  const named = COMMANDS.find((c) => c.name === word);
  return named ? { command: named, rest } : { command: statusCommand, rest: [...argv] };
}

/** Runs the client with `argv`; resolves to the exit code. */
export async function run(argv: readonly string[], io: Io): Promise<ExitCode> {
  const print = (text: string) => io.stdout(text + "\n");
  try {
    const { command, rest } = pickCommand(argv);
    const tokens = tokenize(rest, { ...GLOBAL_FLAGS, ...command?.flags });
    const global: GlobalOptions = parseGlobal(tokens.flags, io.env);
    if (global.help || !command) {
      if (!command && !global.help) throw new UsageError("Name a command or a vendor slug");
      print(command?.help ?? HELP);
      return EXIT.ok;
    }
    const options = command.parse(tokens);
    const route = apiRoute(global.apiUrl, io.env);
    const ctx: Context = {
      client: createClient({
        baseUrl: global.apiUrl,
        apiKey: global.apiKey,
        timeoutMs: global.timeoutMs,
        fetch: io.fetch ?? (route.loopback ? io.directFetch : undefined),
        proxy: route.proxy === null ? null : { url: route.proxy, variable: route.variable! },
      }),
      global,
      colour: !global.json && colourEnabled(io.stdoutIsTerminal, io.env, global.noColor),
      print,
    };
    return await command.run(options, ctx);
  } catch (err) {
    if (err instanceof CliError) {
      const hint = err instanceof UsageError ? " (see status --help)" : "";
      io.stderr(`status: ${err.message}${hint}\n`);
      return err.exitCode;
    }
    const text = err instanceof Error ? err.message : String(err);
    io.stderr(`status: internal error: ${text.split("\n")[0]}\n`);
    return EXIT.apiUnreachable;
  }
}

/** Writes all of `text` to a stream, ignoring a closed pipe (e.g. `| head`). */
function writer(stream: { writeSync(p: Uint8Array): number }): (text: string) => void {
  const enc = new TextEncoder();
  return (text) => {
    let bytes = enc.encode(text);
    try {
      while (bytes.length) bytes = bytes.subarray(stream.writeSync(bytes));
    } catch {
      // The reader went away; nothing useful is left to do with the output.
    }
  };
}

if (import.meta.main) {
  let direct: Deno.HttpClient | null = null;
  const code = await run(Deno.args, {
    env: {
      STATUS_API_URL: Deno.env.get("STATUS_API_URL"),
      STATUS_API_KEY: Deno.env.get("STATUS_API_KEY"),
      NO_COLOR: Deno.env.get("NO_COLOR"),
      ...Object.fromEntries(PROXY_VARIABLES.map((name) => [name, Deno.env.get(name)])),
    },
    directFetch(input, init) {
      if (!direct) {
        // A fetch client reads the proxy variables when made: this one is made without them.
        for (const name of PROXY_VARIABLES) Deno.env.delete(name);
        direct = Deno.createHttpClient({});
      }
      return fetch(input, { ...init, client: direct });
    },
    stdoutIsTerminal: Deno.stdout.isTerminal(),
    stdout: writer(Deno.stdout),
    stderr: writer(Deno.stderr),
  });
  Deno.exit(code);
}
