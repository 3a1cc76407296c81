/**
 * A poll's step for platforms whose components name their group by id only (Cachet 2.x): the
 * group names are read from the platform's groups document (`Adapter.groupNames`), at most once
 * an hour per vendor, and each component gets its group's name. When the document cannot be
 * read, the components keep no group and the reading says why in `notes`.
 * @module
 */
import type { EpochMs, Snapshot } from "../domain/mod.ts";
import { cutText, HOUR_MS } from "../domain/mod.ts";
import type { Adapter } from "./adapters/adapter.ts";
import { politeFetch } from "./http.ts";
import type { PollContext } from "./poll_context.ts";

/** How long a vendor's group names are used before they are read again. */
export const GROUP_NAMES_MS = HOUR_MS;

/** `snapshot` with its components' group names filled in (and their `groupRef` gone). */
export async function withGroupNames(
  vendorId: number,
  adapter: Adapter,
  snapshot: Snapshot,
  main: URL,
  at: EpochMs,
  ctx: PollContext,
  notes: string[],
): Promise<Snapshot> {
  if (!adapter.groupNames || !snapshot.components.some((c) => c.groupRef !== undefined)) {
    return snapshot;
  }
  let names = ctx.groupNames.get(vendorId);
  if (!names || at - names.at >= GROUP_NAMES_MS) {
    const url = adapter.groupNames.endpoint(main);
    const outcome = await ctx.limit(url.host, () => politeFetch(url, ctx.fetchOptions({})));
    let read: ReadonlyMap<string, string> | null = null;
    let why = "";
    if (outcome.kind === "ok") {
      try {
        read = adapter.groupNames.parse(outcome.body);
      } catch (err) {
        why = err instanceof Error ? err.message : String(err);
      }
    } else why = outcome.kind === "failed" ? `${outcome.reason}: ${outcome.detail}` : "no body";
    if (read === null) {
      notes.push(
        cutText(`${url.pathname}: not read (${why}); components are shown without groups`, 300),
      );
      // Names read before still name the groups; else none, and no new try for an hour.
      names ??= { at, names: new Map() };
      if (names.names.size === 0) ctx.groupNames.set(vendorId, names);
    } else {
      names = { at, names: read };
      ctx.groupNames.set(vendorId, names);
    }
  }
  const known = names!.names;
  return {
    ...snapshot,
    components: snapshot.components.map(({ groupRef, ...c }) => ({
      ...c,
      group: groupRef === undefined ? c.group : known.get(groupRef) ?? null,
    })),
  };
}
