/**
 * `statusd admin …`: the self-hoster's account commands (run from source as
 * `deno task admin …`). They open the same store as the server (for SQLite, WAL + busy_timeout make
 * that safe while it runs) and call the same verbs as the web pages.
 * @module
 */
import { parseArgs } from "node:util";
import { z } from "zod";
import {
  addMember,
  type AppContext,
  createAccount,
  createAppContext,
  createKey,
  listAccounts,
  membershipOf,
  promoteVendor,
  revokeKeyByName,
  setMemberRole,
  setPlan,
  setSlaTarget,
} from "../../app/mod.ts";
import { loadConfig } from "../../config.ts";
import { AppError, PLANS, ROLES, toIso } from "../../domain/mod.ts";
import { systemClock } from "../../clock.ts";
import { unknownFlagMessage } from "../../domain/suggest.ts";
import { createLogger } from "../../log.ts";
import { openStore, StoreOpenError } from "../../store/mod.ts";
import { CopyError, copySqliteToPostgres } from "../../store/copy_to_postgres.ts";

/** Exit codes: done, refused (the message says why), bad usage. */
export const ADMIN_EXIT = { ok: 0, refused: 1, usage: 2 } as const;

/** Where the commands read and write (tests pass their own). */
export interface AdminIo {
  readonly stdin: () => Promise<string>;
  readonly out: (line: string) => void;
  readonly err: (line: string) => void;
}

const defaultIo: AdminIo = {
  stdin: () => new Response(Deno.stdin.readable).text(),
  out: (line) => console.log(line),
  err: (line) => console.error(line),
};

/** The usage text of `statusd admin --help`. */
export const ADMIN_HELP =
  `statusd admin <command> [flags]   (from source: deno task admin <command> …)

Account commands against the database of STATUSD_DATABASE_URL, or else the SQLite file in
STATUSD_DB (safe while the server runs).

  create-account --email E --password-stdin [--plan FREE|PRO|TEAM|ENTERPRISE] [--name N]
      Creates an account with E as its OWNER (plan defaults to FREE). The password is read
      from standard input (at least 10 characters).
  add-member --owner-email O --email E --password-stdin [--role OWNER|ADMIN|MEMBER]
      Adds a person to the account of O (role defaults to MEMBER).
  set-role --email E --role OWNER|ADMIN|MEMBER
      Gives E another role in their account, at once: their session, the keys they made and
      the applications they approved keep only what the role allows (a member cannot change
      monitors or alerting). The account's last owner stays an owner.
  set-plan --email E --plan PLAN
      Changes the plan of the account E belongs to.
  set-sla-target --email E --target PERCENT
      Sets the account's SLA target (default 99.9), used by SLA reports.
  list-accounts [--json]
      Lists accounts: plan, SLA target, owners, members, active keys.
  create-key --email E --name N [--scopes s1,s2,…]
      Creates an API key for the account of E (Pro plan or above) and prints it once, on a
      line of its own. No --scopes grants all nine scopes.
  revoke-key --email E --name N
      Revokes the account's active key named N at once and for good.
  promote-vendor <slug>
      Lists a status page an account added by URL for everyone on this statusd (search, the
      catalog, the home page); until then only the accounts that added it see it listed.
  copy-to-postgres --to postgres://user:password@host:5432/database
      Copies everything in the SQLite file of STATUSD_DB (services, history, incidents,
      accounts, keys, sessions, OAuth clients and tokens) into an EMPTY PostgreSQL database in
      one transaction, and checks the row counts of every table. Stop the server first; then
      start it with STATUSD_DATABASE_URL set to the same URL.

Exit codes: 0 done, 1 refused (the message says why), 2 bad usage.`;

const Email = z.string({ error: "--email is required" }).min(1, "--email is required");

/** An enum flag value in any case (`--plan pro` is `PRO`). */
function anyCase<const T extends readonly [string, ...string[]]>(values: T, flag: string) {
  const error = `--${flag} must be one of ${values.join(", ")}`;
  return z.string({ error }).transform((v) => v.trim().toUpperCase()).pipe(
    z.enum(values, { error }),
  );
}

const Plan = anyCase(PLANS, "plan");

const SCHEMAS = {
  "create-account": z.object({
    email: Email,
    "password-stdin": z.literal(true, { error: "--password-stdin is required" }),
    plan: Plan.default("FREE"),
    name: z.string().optional(),
  }),
  "add-member": z.object({
    "owner-email": z.string({ error: "--owner-email is required" }),
    email: Email,
    "password-stdin": z.literal(true, { error: "--password-stdin is required" }),
    role: anyCase(ROLES, "role").default("MEMBER"),
  }),
  "set-role": z.object({ email: Email, role: anyCase(ROLES, "role") }),
  "set-plan": z.object({ email: Email, plan: Plan }),
  "set-sla-target": z.object({
    email: Email,
    target: z.coerce.number({ error: "--target must be a number" }),
  }),
  "list-accounts": z.object({ json: z.boolean().default(false) }),
  "create-key": z.object({
    email: Email,
    name: z.string({ error: "--name is required" }),
    scopes: z.string().optional(),
  }),
  "revoke-key": z.object({ email: Email, name: z.string({ error: "--name is required" }) }),
  "promote-vendor": z.object({
    slug: z.string({ error: "promote-vendor takes the vendor's slug" }).min(1),
  }),
  "copy-to-postgres": z.object({
    to: z.string({ error: "--to is required (postgres://user:password@host:5432/database)" })
      .refine((v) => /^postgres(ql)?:\/\/[^/]/.test(v), {
        error: "--to must be a postgres:// or postgresql:// URL",
      }),
  }),
} as const;

type Command = keyof typeof SCHEMAS;

const OPTIONS = {
  email: { type: "string" },
  "owner-email": { type: "string" },
  "password-stdin": { type: "boolean" },
  plan: { type: "string" },
  name: { type: "string" },
  role: { type: "string" },
  target: { type: "string" },
  scopes: { type: "string" },
  json: { type: "boolean" },
  to: { type: "string" },
  slug: { type: "string" },
  help: { type: "boolean", short: "h" },
} as const;

/** The flags `command` takes (`--help` is always allowed). */
function flagsOf(command: Command): string[] {
  return [...Object.keys(SCHEMAS[command].shape), "help"];
}

/**
 * The first flag in `args` that is not known (to `command` when it is one, else to any
 * command), as "unknown flag --emial; did you mean --email?"; null when all are known.
 */
function unknownFlag(args: readonly string[], command: string | undefined): string | null {
  const known = command !== undefined && command in SCHEMAS
    ? flagsOf(command as Command)
    : Object.keys(OPTIONS);
  for (const arg of args) {
    if (arg === "--") break;
    if (!arg.startsWith("--")) continue;
    const typed = arg.split("=")[0]!;
    if (!known.includes(typed.slice(2))) {
      const message = unknownFlagMessage(typed, known);
      return command !== undefined && command in SCHEMAS && typed.slice(2) in OPTIONS
        ? `${message} (${command} takes ${
          flagsOf(command as Command).map((f) => `--${f}`).join(", ")
        })`
        : message;
    }
  }
  return null;
}

/** The command word: the first argument that is neither a flag nor a flag's value. */
function commandWord(args: readonly string[]): string | undefined {
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === "--") return args[i + 1];
    if (!arg.startsWith("-")) return arg;
    const name = arg.slice(2).split("=")[0]!;
    const option = OPTIONS[name as keyof typeof OPTIONS];
    if (option?.type === "string" && !arg.includes("=")) i++;
  }
  return undefined;
}

async function readPassword(io: AdminIo): Promise<string> {
  return (await io.stdin()).replace(/\r?\n$/, "");
}

async function execute(
  ctx: AppContext,
  command: Command,
  flags: Record<string, unknown>,
  io: AdminIo,
): Promise<void> {
  switch (command) {
    case "create-account": {
      const f = SCHEMAS[command].parse(flags);
      const { account } = await createAccount(ctx, {
        email: f.email,
        password: await readPassword(io),
        plan: f.plan,
        name: f.name,
      });
      io.out(`Created account ${account.id} (${account.plan}) with owner ${f.email}`);
      return;
    }
    case "add-member": {
      const f = SCHEMAS[command].parse(flags);
      const { member } = await addMember(ctx, {
        ownerEmail: f["owner-email"],
        email: f.email,
        password: await readPassword(io),
        role: f.role,
      });
      io.out(`Added ${member.email} as ${member.role}`);
      return;
    }
    case "set-role": {
      const f = SCHEMAS[command].parse(flags);
      const { member } = await setMemberRole(ctx, { email: f.email, role: f.role });
      io.out(`${member.email} is now ${member.role}`);
      return;
    }
    case "promote-vendor": {
      const f = SCHEMAS[command].parse(flags);
      await promoteVendor(ctx, f.slug);
      io.out(`${f.slug} is listed for everyone on this statusd now`);
      return;
    }
    case "set-plan": {
      const f = SCHEMAS[command].parse(flags);
      io.out(`Plan of ${f.email}'s account is now ${(await setPlan(ctx, f.email, f.plan)).plan}`);
      return;
    }
    case "set-sla-target": {
      const f = SCHEMAS[command].parse(flags);
      const a = await setSlaTarget(ctx, f.email, f.target);
      io.out(`SLA target of ${f.email}'s account is now ${a.slaTarget}%`);
      return;
    }
    case "list-accounts": {
      const f = SCHEMAS[command].parse(flags);
      const rows = (await listAccounts(ctx)).map((a) => ({
        id: a.id,
        name: a.name,
        plan: a.plan,
        slaTarget: a.slaTarget,
        owners: a.owners,
        members: a.members,
        activeKeys: a.activeKeys,
        createdAt: toIso(a.createdAt),
      }));
      if (f.json) io.out(JSON.stringify(rows, null, 2));
      else {
        io.out(["PLAN", "SLA", "MEMBERS", "KEYS", "OWNERS", "CREATED"].join("\t"));
        for (const r of rows) {
          io.out(
            [r.plan, `${r.slaTarget}%`, r.members, r.activeKeys, r.owners.join(","), r.createdAt]
              .join("\t"),
          );
        }
      }
      return;
    }
    case "create-key": {
      const f = SCHEMAS[command].parse(flags);
      const { account } = await membershipOf(ctx, f.email);
      const scopes = f.scopes ? f.scopes.split(",").map((s) => s.trim()).filter(Boolean) : [];
      const { key, secret } = await createKey(ctx, { kind: "admin", account }, {
        name: f.name,
        scopes,
      });
      io.err(
        `Created key "${key.name}" with scopes ${key.scopes.join(",")}. ` +
          "It is printed once below; store it now, it cannot be shown again.",
      );
      io.out(secret);
      return;
    }
    case "revoke-key": {
      const f = SCHEMAS[command].parse(flags);
      const { account } = await membershipOf(ctx, f.email);
      const k = await revokeKeyByName(ctx, { kind: "admin", account }, f.name);
      io.out(`Revoked key "${k.name}" (${k.prefix}…); requests with it now get 401`);
      return;
    }
  }
}

/** Runs one admin command; returns the exit code. */
export async function runAdmin(
  args: readonly string[],
  env: Record<string, string | undefined>,
  io: AdminIo = defaultIo,
): Promise<number> {
  const misspelt = unknownFlag(args, commandWord(args));
  if (misspelt !== null) {
    io.err(misspelt);
    io.err("(statusd admin --help lists every command and its flags)");
    return ADMIN_EXIT.usage;
  }
  let parsed;
  try {
    parsed = parseArgs({ args: [...args], options: OPTIONS, allowPositionals: true, strict: true });
  } catch (err) {
    io.err(`${err instanceof Error ? err.message : String(err)}\n\n${ADMIN_HELP}`);
    return ADMIN_EXIT.usage;
  }
  const [command, ...extra] = parsed.positionals;
  if (parsed.values.help || command === "help" || command === undefined) {
    (command === undefined && !parsed.values.help ? io.err : io.out)(ADMIN_HELP);
    return command === undefined && !parsed.values.help ? ADMIN_EXIT.usage : ADMIN_EXIT.ok;
  }
  // `promote-vendor <slug>`: the one command that takes a positional.
  if (command === "promote-vendor" && extra.length === 1 && parsed.values.slug === undefined) {
    parsed.values.slug = extra.pop();
  }
  if (!(command in SCHEMAS) || extra.length) {
    io.err(`Unknown command "${[command, ...extra].join(" ")}"\n\n${ADMIN_HELP}`);
    return ADMIN_EXIT.usage;
  }
  const issues = SCHEMAS[command as Command].safeParse(parsed.values);
  if (!issues.success) {
    io.err(issues.error.issues.map((i) => i.message).join("\n"));
    return ADMIN_EXIT.usage;
  }
  const config = loadConfig(env);
  if (command === "copy-to-postgres") {
    return await copyToPostgres(config.dbPath, SCHEMAS[command].parse(parsed.values).to, io);
  }
  let store;
  try {
    store = await openStore(config);
  } catch (err) {
    if (!(err instanceof StoreOpenError)) throw err;
    io.err(err.message);
    return ADMIN_EXIT.refused;
  }
  const ctx: AppContext = createAppContext({
    store,
    clock: systemClock,
    log: createLogger("warn"),
    settings: {
      publicUrl: config.publicUrl,
      pollStableSeconds: config.poll.stableSeconds,
      pollMovingSeconds: config.poll.movingSeconds,
    },
  });
  try {
    await execute(ctx, command as Command, parsed.values, io);
    return ADMIN_EXIT.ok;
  } catch (err) {
    if (err instanceof AppError) {
      io.err(err.message);
      return ADMIN_EXIT.refused;
    }
    throw err;
  } finally {
    await store.close();
  }
}

/** `copy-to-postgres`: the SQLite file into an empty PostgreSQL database, with its counts. */
async function copyToPostgres(dbPath: string, to: string, io: AdminIo): Promise<number> {
  const host = new URL(to).host;
  try {
    const report = await copySqliteToPostgres(dbPath, to);
    for (const { table, rows } of report) io.out(`${table}\t${rows}`);
    const total = report.reduce((n, r) => n + r.rows, 0);
    io.out(
      `Copied ${total} rows of ${dbPath} into ${host}; the counts of every table match. ` +
        "Start statusd with STATUSD_DATABASE_URL set to that URL.",
    );
    return ADMIN_EXIT.ok;
  } catch (err) {
    if (!(err instanceof CopyError)) throw err;
    io.err(`Cannot copy into ${host}: ${err.message}`);
    return ADMIN_EXIT.refused;
  }
}
