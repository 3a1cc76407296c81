/**
 * Groups and boards. A group is a named set of the account's monitors; its level is
 * the worst of theirs. A board is an ordered layout of groups and monitors with a title and a
 * slug, private to the account or public at `/b/{slug}` and `/api/boards/{slug}` — "the status
 * of everything our product depends on". Same access as monitors (`monitors:read` /
 * `monitors:write`; members read, owners and admins write); another account's is a 404.
 * @module
 */
import { z } from "zod";
import {
  type BoardRecord,
  type DayWorst,
  Forbidden,
  type GroupRecord,
  InvalidRequest,
  type Issue,
  logoFromDataUrl,
  NotFound,
  PlanRequired,
  PreconditionFailed,
  worst,
} from "../domain/mod.ts";
import { randomToken } from "./_tokens.ts";
import { accountDocVerbs } from "./_account_docs.ts";
import type { AppContext } from "./context.ts";
import { everyRecord } from "./_every.ts";
import { type MonitorView, parse, READ_MONITORS, viewOf, WRITE_MONITORS } from "./monitors.ts";
import { type Caller, callerAccount } from "./policy.ts";
import type { BoardEntry, BoardView, GroupView } from "../domain/mod.ts";

/** Groups any account may keep. */
export const GROUP_LIMIT = 200;
/** Boards a FREE account may keep; other plans {@link BOARD_LIMIT}. */
export const FREE_BOARD_LIMIT = 1;
export const BOARD_LIMIT = 100;

const Name = z.string().trim().min(1).max(100);
const Id = z.string().trim().min(1).max(100);
const Slug = z.string().trim().toLowerCase().regex(/^[a-z0-9][a-z0-9-]{1,62}$/, {
  error: "2 to 63 lower-case letters, digits and dashes, starting with a letter or digit",
});
const Item = z.object({ kind: z.enum(["group", "monitor"]), id: Id }).strict();
const Description = z.string().trim().max(1000).nullable();
const AccentColor = z.string().trim().toLowerCase().regex(/^#[0-9a-f]{6}$/, {
  error: "a colour as #rrggbb",
}).nullable();
/** A DNS host name, lower-cased, with at least one dot (no port, no scheme, no IP address). */
const Host = z.string().trim().toLowerCase().max(253).regex(
  /^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z][a-z0-9-]{0,61}[a-z0-9]$/,
  { error: "a host name such as status.example.com (no scheme, port or path)" },
).nullable();
/** A logo as a `data:` URL (domain/logo.ts), or null to remove it. */
const LogoInput = z.string().max(200_000).nullable().transform((url, ctx) => {
  if (url === null) return null;
  const logo = logoFromDataUrl(url);
  if ("problem" in logo) {
    ctx.addIssue({ code: "custom", message: logo.problem });
    return z.NEVER;
  }
  return logo;
});
const Links = z.array(
  z.object({
    label: z.string().trim().min(1).max(60),
    url: z.url({ protocol: /^https?$/, error: "an http(s) URL" }).max(2000),
  }).strict(),
).max(5);

const NewGroupInput = z.object({
  name: Name,
  monitors: z.array(Id).max(500).default([]),
}).strict();
const GroupPatchInput = z.object({
  name: Name.optional(),
  monitors: z.array(Id).max(500).optional(),
}).strict();
const NewBoardInput = z.object({
  slug: Slug,
  title: z.string().trim().min(1).max(200),
  public: z.boolean().default(false),
  items: z.array(Item).max(500).default([]),
  description: Description.default(null),
  accentColor: AccentColor.default(null),
  links: Links.default([]),
  host: Host.default(null),
  logo: LogoInput.default(null),
  earlyWarning: z.boolean().default(false),
}).strict();
const BoardPatchInput = z.object({
  slug: Slug.optional(),
  title: z.string().trim().min(1).max(200).optional(),
  public: z.boolean().optional(),
  items: z.array(Item).max(500).optional(),
  description: Description.optional(),
  accentColor: AccentColor.optional(),
  links: Links.optional(),
  host: Host.optional(),
  logo: LogoInput.optional(),
  earlyWarning: z.boolean().optional(),
}).strict();

/** Every monitor of the account, by id (views). */
async function monitorsOf(ctx: AppContext, accountId: string): Promise<Map<string, MonitorView>> {
  const out = new Map<string, MonitorView>();
  for await (const m of everyRecord(ctx.store.monitors.list, accountId)) {
    out.set(m.id, await viewOf(ctx, m));
  }
  return out;
}

/** Ids the account does not have, as 400 issues under `field`. */
function unknownIds(
  field: string,
  ids: readonly string[],
  known: (id: string) => boolean,
  what: string,
): Issue[] {
  return ids.flatMap((id, i) =>
    known(id) ? [] : [{ parameter: `${field}.${i}`, message: `no ${what} "${id}" in this account` }]
  );
}

function groupView(g: GroupRecord, monitors: Map<string, MonitorView>): GroupView {
  const members = g.monitorIds.flatMap((id) => monitors.get(id) ?? []);
  return {
    ...g,
    currentStatus: members.length ? worst(members.map((m) => m.currentStatus)) : "UNKNOWN",
    monitors: members,
  };
}

/** The worst of several daily histories, day by day. */
function worstDays(histories: readonly (readonly DayWorst[])[]): DayWorst[] {
  const first = histories[0] ?? [];
  return first.map((d, i) => ({
    day: d.day,
    worstStatus: worst(histories.map((h) => h[i]?.worstStatus ?? "UNKNOWN")),
  }));
}

async function boardView(ctx: AppContext, b: BoardRecord): Promise<BoardView> {
  const monitors = await monitorsOf(ctx, b.accountId);
  const entries: BoardEntry[] = [];
  for (const item of b.items) {
    if (item.kind === "monitor") {
      const m = monitors.get(item.id);
      if (!m) continue;
      entries.push({
        kind: "monitor",
        id: m.id,
        name: m.label ?? m.serviceName ?? m.serviceSlug,
        currentStatus: m.paused ? "UNKNOWN" : m.currentStatus,
        history: m.history,
        openIncidents: m.openIncidents,
        monitors: [],
        monitor: m,
        services: [m.serviceSlug],
      });
    } else {
      const g = await ctx.store.groups.get(b.accountId, item.id);
      if (!g) continue;
      const v = groupView(g, monitors);
      entries.push({
        kind: "group",
        id: g.id,
        name: g.name,
        currentStatus: v.currentStatus,
        history: worstDays(v.monitors.map((m) => m.history)),
        openIncidents: v.monitors.flatMap((m) => m.openIncidents),
        monitors: v.monitors,
        monitor: null,
        services: [...new Set(v.monitors.map((m) => m.serviceSlug))],
      });
    }
  }
  return {
    ...b,
    description: b.description ?? null,
    accentColor: b.accentColor ?? null,
    links: b.links ?? [],
    host: b.host ?? null,
    logo: b.logo ?? null,
    earlyWarning: b.earlyWarning ?? false,
    slug: shownSlug(b.slug),
    currentStatus: entries.length ? worst(entries.map((e) => e.currentStatus)) : "UNKNOWN",
    entries,
  };
}

// ---- groups ---------------------------------------------------------------------------------

/** Creates a group of the account's monitors (unknown monitor ids are a 400). */
export async function createGroup(
  ctx: AppContext,
  who: Caller,
  input: unknown,
): Promise<GroupView> {
  const account = callerAccount(who, WRITE_MONITORS);
  const g = parse(NewGroupInput, input);
  const monitors = await monitorsOf(ctx, account.id);
  const issues = unknownIds("monitors", g.monitors, (id) => monitors.has(id), "monitor");
  if (issues.length) throw new InvalidRequest(issues);
  const made = await ctx.store.groups.create({
    id: `grp_${randomToken(12)}`,
    accountId: account.id,
    name: g.name,
    monitorIds: [...new Set(g.monitors)],
    createdAt: ctx.clock.now(),
  }, GROUP_LIMIT);
  if (made === "limit" || made === "slug_taken") {
    throw new Forbidden(`This account already has ${GROUP_LIMIT} groups, the most allowed`);
  }
  return groupView(made, monitors);
}

/** Changes a group (`ifVersion`: the version the caller saw, or null). */
export async function updateGroup(
  ctx: AppContext,
  who: Caller,
  id: string,
  input: unknown,
  ifVersion: number | null,
): Promise<GroupView> {
  const account = callerAccount(who, WRITE_MONITORS);
  const patch = parse(GroupPatchInput, input);
  const monitors = await monitorsOf(ctx, account.id);
  if (patch.monitors) {
    const issues = unknownIds("monitors", patch.monitors, (m) => monitors.has(m), "monitor");
    if (issues.length) throw new InvalidRequest(issues);
  }
  const updated = await ctx.store.groups.update(
    account.id,
    id,
    {
      ...(patch.name === undefined ? {} : { name: patch.name }),
      ...(patch.monitors === undefined ? {} : { monitorIds: [...new Set(patch.monitors)] }),
    },
    ctx.clock.now(),
    ifVersion,
  );
  if (updated === null) throw new NotFound("group", id);
  if (updated === "conflict" || updated === "slug_taken") throw new PreconditionFailed();
  return groupView(updated, monitors);
}

// ---- boards ---------------------------------------------------------------------------------

async function checkItems(
  ctx: AppContext,
  accountId: string,
  items: readonly { kind: "group" | "monitor"; id: string }[],
): Promise<void> {
  const issues: Issue[] = [];
  for (const [i, item] of items.entries()) {
    const found = item.kind === "group"
      ? await ctx.store.groups.get(accountId, item.id)
      : await ctx.store.monitors.get(accountId, item.id);
    if (found === null) {
      issues.push({
        parameter: `items.${i}`,
        message: `no ${item.kind} "${item.id}" in this account`,
      });
    }
  }
  if (issues.length) throw new InvalidRequest(issues);
}

/**
 * The slug a board is stored under. Public boards share one address space (`/b/{slug}`), so
 * their slugs are stored as they are; a private board's slug is kept within its account
 * (`<account>~<slug>`), so no other account can learn it exists by trying to take it.
 */
function storedSlug(accountId: string, slug: string, isPublic: boolean): string {
  return isPublic ? slug : `${accountId}~${slug}`;
}

/** The slug a board shows (its stored slug without the account it is kept within). */
function shownSlug(stored: string): string {
  const at = stored.indexOf("~");
  return at < 0 ? stored : stored.slice(at + 1);
}

/**
 * Throws a 400 when `host` is statusd's own or another board's (`except`: the board being
 * changed). Two boards never answer for one host.
 */
async function checkHost(ctx: AppContext, host: string, except: string | null) {
  const own = new URL(ctx.settings.publicUrl).hostname;
  const issue = (message: string) => new InvalidRequest([{ parameter: "host", message }]);
  if (host === own) throw issue(`"${host}" is this statusd's own host`);
  const holders = await ctx.store.boards.withHost();
  if (holders.some((b) => b.host === host && b.id !== except)) {
    throw issue(`the host "${host}" is another board's`);
  }
}

/** Throws "taken" when a public board (of any account, but `except`) holds `slug`. */
async function checkPublicSlug(ctx: AppContext, slug: string, except: string | null) {
  const holder = await ctx.store.boards.bySlug(slug);
  if (holder !== null && holder.public && holder.id !== except) throw slugTaken(slug);
}

const slugTaken = (slug: string) =>
  new InvalidRequest([{ parameter: "slug", message: `the board address "${slug}" is taken` }]);

/** Creates a board; FREE accounts keep one. */
export async function createBoard(
  ctx: AppContext,
  who: Caller,
  input: unknown,
): Promise<BoardView> {
  const account = callerAccount(who, WRITE_MONITORS);
  const b = parse(NewBoardInput, input);
  await checkItems(ctx, account.id, b.items);
  if (b.host !== null) await checkHost(ctx, b.host, null);
  // A public address stays one board's, even for another account's private board.
  if (!b.public) await checkPublicSlug(ctx, b.slug, null);
  const free = account.plan === "FREE";
  const made = await ctx.store.boards.create({
    id: `brd_${randomToken(12)}`,
    accountId: account.id,
    slug: storedSlug(account.id, b.slug, b.public),
    title: b.title,
    public: b.public,
    items: b.items,
    description: b.description,
    accentColor: b.accentColor,
    links: b.links,
    host: b.host,
    logo: b.logo,
    createdAt: ctx.clock.now(),
  }, free ? FREE_BOARD_LIMIT : BOARD_LIMIT);
  if (made === "slug_taken") throw slugTaken(b.slug);
  if (made === "limit") {
    if (free) throw new PlanRequired("PRO", `More than ${FREE_BOARD_LIMIT} board`);
    throw new Forbidden(`This account already has ${BOARD_LIMIT} boards, the most allowed`);
  }
  return await boardView(ctx, made);
}

/** Changes a board (`ifVersion` as for groups). */
export async function updateBoard(
  ctx: AppContext,
  who: Caller,
  id: string,
  input: unknown,
  ifVersion: number | null,
): Promise<BoardView> {
  const account = callerAccount(who, WRITE_MONITORS);
  const patch = parse(BoardPatchInput, input);
  if (patch.items) await checkItems(ctx, account.id, patch.items);
  if (patch.host) await checkHost(ctx, patch.host, id);
  let change = patch;
  if (patch.slug !== undefined || patch.public !== undefined) {
    const now = await ctx.store.boards.get(account.id, id);
    if (now === null) throw new NotFound("board", id);
    const isPublic = patch.public ?? now.public;
    if (!isPublic) await checkPublicSlug(ctx, patch.slug ?? shownSlug(now.slug), id);
    change = {
      ...patch,
      slug: storedSlug(account.id, patch.slug ?? shownSlug(now.slug), isPublic),
    };
  }
  const updated = await ctx.store.boards.update(account.id, id, change, ctx.clock.now(), ifVersion);
  if (updated === null) throw new NotFound("board", id);
  if (updated === "slug_taken") throw slugTaken(shownSlug(change.slug!));
  if (updated === "conflict") throw new PreconditionFailed();
  return await boardView(ctx, updated);
}

/**
 * A board by its public address: anyone may read a public board; a private one is a 404 to
 * everyone but its account's callers holding `monitors:read` (never a 403: no leak).
 */
export async function boardBySlug(ctx: AppContext, who: Caller, slug: string): Promise<BoardView> {
  return await boardView(ctx, await boardRecordBySlug(ctx, who, slug));
}

/**
 * {@link boardBySlug}'s stored record, without reading its entries: for what needs only the
 * board's own fields (its theme, its logo).
 */
export async function boardRecordBySlug(
  ctx: AppContext,
  who: Caller,
  slug: string,
): Promise<BoardRecord> {
  const wanted = slug.toLowerCase();
  const own = who.kind !== "anonymous" && who.kind !== "admin" && !wanted.includes("~")
    ? await ctx.store.boards.bySlug(storedSlug(who.account.id, wanted, false))
    : null;
  const b = own ?? await ctx.store.boards.bySlug(wanted.includes("~") ? "" : wanted);
  const mine = b !== null && who.kind !== "anonymous" && who.kind !== "admin" &&
    who.account.id === b.accountId;
  if (b === null || (!b.public && !mine)) throw new NotFound("board", slug);
  if (!b.public) callerAccount(who, READ_MONITORS);
  return b;
}

/** How long a server trusts its map of board hosts before reading it again. */
export const BOARD_HOSTS_TTL_MS = 5_000;

/**
 * The board a request's host names (its stored slug), or null: the map of hosts is read at
 * most every {@link BOARD_HOSTS_TTL_MS} and at once after a board changes on this server
 * (`forget`). A private board's host leads to its page, which is a 404 to everyone.
 */
export function boardHosts(ctx: AppContext): {
  slugOf(host: string): Promise<string | null>;
  forget(): void;
} {
  let map: Promise<Map<string, string>> | null = null;
  let readAt = 0;
  return {
    async slugOf(host) {
      const now = Date.now();
      if (map === null || now - readAt > BOARD_HOSTS_TTL_MS) {
        readAt = now;
        // Private boards too: their host then reaches their page, which is a 404.
        map = ctx.store.boards.withHost().then((boards) =>
          new Map(boards.map((b) => [b.host!, b.slug]))
        );
        map.catch(() => {
          map = null;
        });
      }
      return (await map).get(host.toLowerCase()) ?? null;
    },
    forget() {
      map = null;
    },
  };
}

/** Slugs of the services a board watches (through its monitors and groups), each once. */
export function boardServiceSlugs(b: BoardView): string[] {
  return [...new Set(b.entries.flatMap((e) => e.services))];
}

const groupVerbs = accountDocVerbs<GroupRecord, GroupView>({
  noun: "group",
  docs: (store) => store.groups,
  read: READ_MONITORS,
  write: WRITE_MONITORS,
  views: async (ctx, account, groups) => {
    const monitors = await monitorsOf(ctx, account);
    return groups.map((g) => groupView(g, monitors));
  },
});
/** The account's groups, oldest first. */
export const listGroups = groupVerbs.list;
/** One of the account's groups. */
export const getGroup = groupVerbs.get;
/** Deletes a group (`ifVersion`: the version the caller saw, or null). */
export const deleteGroup = groupVerbs.remove;

const boardVerbs = accountDocVerbs<BoardRecord, BoardView>({
  noun: "board",
  docs: (store) => store.boards,
  read: READ_MONITORS,
  write: WRITE_MONITORS,
  views: async (ctx, _account, boards) => {
    const views = [];
    for (const b of boards) views.push(await boardView(ctx, b));
    return views;
  },
});
/** The account's boards, oldest first. */
export const listBoards = boardVerbs.list;
/** One of the account's boards. */
export const getBoard = boardVerbs.get;
/** Deletes a board (`ifVersion`: the version the caller saw, or null). */
export const deleteBoard = boardVerbs.remove;

export type { BoardEntry, BoardView, GroupView };
