/**
 * What one alert-evaluation round reads, once: the changed services' details, the groups and
 * boards rules name, and who watches each changed service (rules and subscriptions paired with
 * the monitors their targets name). Every evaluator pass starts from a {@link Round}.
 * @module
 */
import {
  type BoardRecord,
  type EpochMs,
  type GroupRecord,
  monitorLevelNow,
  type MonitorRecord,
  type Reading,
  readingOf,
  type RuleRecord,
  type RuleTarget,
  type ServiceDetail,
  type StatusLevel,
  type SubscriptionRecord,
} from "../domain/mod.ts";
import { getService } from "./catalog.ts";
import type { AppContext } from "./context.ts";

/** `cache`'s promise for `key`, made by `load` the first time. */
function once<T>(cache: Map<string, Promise<T>>, key: string, load: () => Promise<T>): Promise<T> {
  let found = cache.get(key);
  if (!found) cache.set(key, found = load());
  return found;
}

/**
 * What one round reads once: each changed service's detail, and the groups and boards rules
 * name. Nothing outlives the round, so an edit is seen by the next one.
 */
export class Round {
  readonly now: EpochMs;
  readonly #services = new Map<string, Promise<ServiceDetail | null>>();
  readonly #groups = new Map<string, Promise<GroupRecord | null>>();
  readonly #boards = new Map<string, Promise<BoardRecord | null>>();
  constructor(readonly ctx: AppContext) {
    this.now = ctx.clock.now();
  }

  /** The service's detail now (null: it left the catalog). */
  service(slug: string): Promise<ServiceDetail | null> {
    return once(this.#services, slug, () => getService(this.ctx, slug).catch(() => null));
  }

  /**
   * The service's name, page and reading health now, without its components and history (what
   * a failing reading's alert says; cheap enough for every failing vendor each minute).
   */
  async reading(slug: string): Promise<ReadingOfService | null> {
    const row = await this.ctx.store.catalog.service(slug);
    if (row === null) return null;
    const policy = { stableSeconds: this.ctx.settings.pollStableSeconds };
    return {
      name: row.name,
      statusPageUrl: row.statusPageUrl,
      reading: readingOf(row.reading, this.now, policy),
    };
  }

  /** The level `m` reads now. */
  async level(m: MonitorRecord): Promise<StatusLevel> {
    return monitorLevelNow(await this.service(m.serviceSlug), m.components);
  }

  group(accountId: string, id: string): Promise<GroupRecord | null> {
    return once(this.#groups, `${accountId}|${id}`, () => this.ctx.store.groups.get(accountId, id));
  }

  board(accountId: string, id: string): Promise<BoardRecord | null> {
    return once(this.#boards, `${accountId}|${id}`, () => this.ctx.store.boards.get(accountId, id));
  }

  /** Of `monitors` (one account's), those `target` names. */
  async targeted(
    accountId: string,
    target: RuleTarget,
    monitors: readonly MonitorRecord[],
  ): Promise<MonitorRecord[]> {
    if (target.kind === "all") return [...monitors];
    if (target.kind === "monitor") return monitors.filter((m) => m.id === target.id);
    if (target.kind === "group") {
      const g = await this.group(accountId, target.id);
      return g ? monitors.filter((m) => g.monitorIds.includes(m.id)) : [];
    }
    const b = await this.board(accountId, target.id);
    if (!b) return [];
    const ids = new Set<string>();
    for (const item of b.items) {
      if (item.kind === "monitor") ids.add(item.id);
      else for (const id of (await this.group(accountId, item.id))?.monitorIds ?? []) ids.add(id);
    }
    return monitors.filter((m) => ids.has(m.id));
  }
}

/** What a failing reading's alert needs of its service. */
export interface ReadingOfService {
  readonly name: string;
  readonly statusPageUrl: string;
  readonly reading: Reading;
}

/** A rule or subscription and one monitor of a changed service it watches. */
export interface Watch<S> {
  readonly source: S;
  readonly monitor: MonitorRecord;
}

/**
 * Who watches `slugs`: per service, each rule (and active subscription) of an account with a
 * monitor on it, paired with each such monitor its target names, in rule order. Disabled rules
 * are among them: they send nothing new, but end the alerts they opened. Subscriptions are read
 * only `withSubscriptions` (they are told nothing of readings).
 */
export async function watchersOf(
  round: Round,
  slugs: readonly string[],
  withSubscriptions = true,
): Promise<{
  readonly rules: ReadonlyMap<string, readonly Watch<RuleRecord>[]>;
  readonly subscriptions: ReadonlyMap<string, readonly Watch<SubscriptionRecord>[]>;
}> {
  const store = round.ctx.store;
  const monitors = slugs.length ? await store.monitors.watching(slugs) : [];
  const byAccount = new Map<string, MonitorRecord[]>();
  for (const m of monitors) {
    const list = byAccount.get(m.accountId);
    if (list) list.push(m);
    else byAccount.set(m.accountId, [m]);
  }
  const accounts = [...byAccount.keys()];
  const pair = async <S extends { accountId: string; target: RuleTarget }>(
    sources: readonly S[],
  ) => {
    const bySlug = new Map<string, Watch<S>[]>();
    for (const source of sources) {
      const own = byAccount.get(source.accountId) ?? [];
      for (const monitor of await round.targeted(source.accountId, source.target, own)) {
        const list = bySlug.get(monitor.serviceSlug);
        if (list) list.push({ source, monitor });
        else bySlug.set(monitor.serviceSlug, [{ source, monitor }]);
      }
    }
    return bySlug;
  };
  return {
    rules: await pair(accounts.length ? await store.alertRules.ofAccounts(accounts) : []),
    subscriptions: await pair(
      accounts.length && withSubscriptions ? await store.subscriptions.active(accounts) : [],
    ),
  };
}
