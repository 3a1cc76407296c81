/**
 * Every record of an account from a paged store read, a store page (500) at a time: for the
 * verbs that need them all (a status filter over what monitors read now, a twin check).
 * @module
 */
import type { PageRequest } from "../domain/mod.ts";

/** Rows asked of the store per page. */
const PAGE = 500;

/** Every record `list` pages through for `accountId`, in its order. */
export async function* everyRecord<R>(
  list: (accountId: string, page: PageRequest) => Promise<{ readonly items: readonly R[] }>,
  accountId: string,
): AsyncGenerator<R> {
  for (let page = 0;; page++) {
    const { items } = await list(accountId, { page, limit: PAGE });
    yield* items;
    if (items.length < PAGE) return;
  }
}
