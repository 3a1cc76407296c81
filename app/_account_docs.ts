/**
 * The verbs every account document shares (groups, boards, alert routes, rules, escalation
 * policies, subscriptions): list a page, get one, delete one under `If-Match`. Declared once per
 * noun with its access and its view; creating and changing stay with each noun, since what they
 * check differs.
 * @module
 */
import {
  type AccountDocStore,
  NotFound,
  type Page,
  pageOf,
  type PageRequest,
  PreconditionFailed,
  type Store,
} from "../domain/mod.ts";
import type { AppContext } from "./context.ts";
import { type Access, type Caller, callerAccount } from "./policy.ts";

/** What one noun of account documents is. */
export interface AccountDocNoun<R, V> {
  /** Its name in a 404 ("alert route"). */
  readonly noun: string;
  /** Its documents in the store. */
  readonly docs: (
    store: Store,
  ) => Pick<AccountDocStore<R, never, never>, "list" | "get" | "delete">;
  readonly read: Access;
  readonly write: Access;
  /** The records as shown; one call per page, so a view loads what they share once. */
  readonly views: (ctx: AppContext, accountId: string, records: readonly R[]) => Promise<V[]>;
}

/** The shared verbs of one noun. */
export interface AccountDocVerbs<V> {
  /** One page of the account's documents, oldest first. */
  list(ctx: AppContext, who: Caller, page: PageRequest): Promise<Page<V>>;
  /** One of the account's documents; NotFound for any other id. */
  get(ctx: AppContext, who: Caller, id: string): Promise<V>;
  /** Deletes one (`ifVersion`: the version the caller saw, or null); 404 or 412 otherwise. */
  remove(ctx: AppContext, who: Caller, id: string, ifVersion: number | null): Promise<void>;
}

/** The shared verbs of `noun`. */
export function accountDocVerbs<R, V>(noun: AccountDocNoun<R, V>): AccountDocVerbs<V> {
  return {
    async list(ctx, who, page) {
      const account = callerAccount(who, noun.read);
      const { items, total } = await noun.docs(ctx.store).list(account.id, page);
      return pageOf(await noun.views(ctx, account.id, items), total, page);
    },
    async get(ctx, who, id) {
      const account = callerAccount(who, noun.read);
      const found = await noun.docs(ctx.store).get(account.id, id);
      if (found === null) throw new NotFound(noun.noun, id);
      return (await noun.views(ctx, account.id, [found]))[0]!;
    },
    async remove(ctx, who, id, ifVersion) {
      const account = callerAccount(who, noun.write);
      const done = await noun.docs(ctx.store).delete(account.id, id, ifVersion);
      if (done === false) throw new NotFound(noun.noun, id);
      if (done === "conflict") throw new PreconditionFailed();
    },
  };
}

/** The view of a noun shown as stored. */
export function asStored<R>(_ctx: AppContext, _accountId: string, records: readonly R[]) {
  return Promise.resolve([...records]);
}
