/**
 * "Whose outage is this?" (#47): the vendors a host, URL or error line belongs to, best first,
 * each with why and, where the vendor names its components as hosts do, the component. What a
 * developer pastes from a failed call (`getaddrinfo ENOTFOUND registry.npmjs.org`,
 * `https://api.openai.com/v1/chat/completions`) gives the vendor whose status matters; nothing
 * fitting gives no match, never a guess.
 * @module
 */
import {
  componentFor,
  hostsIn,
  InvalidRequest,
  isOpen,
  type LookupMatch,
  matchHost,
} from "../domain/mod.ts";
import { listedAccount, searchCandidates } from "./catalog.ts";
import type { AppContext } from "./context.ts";
import { type Access, authorize, type Caller } from "./policy.ts";

/** Who may look a vendor up: anyone, like the catalog; a key must hold `status:read`. */
export const LOOKUP_VENDORS: Access = { credential: "optional", scopes: ["status:read"] };

/** Matches answered at most. */
export const LOOKUP_MATCHES_MAX = 5;

/** The vendors `target` (a host, a URL or a line of error text) belongs to, best first. */
export async function lookupVendors(
  ctx: AppContext,
  who: Caller,
  target: string,
): Promise<LookupMatch[]> {
  authorize(who, LOOKUP_VENDORS);
  const text = target.trim();
  if (text === "" || text.length > 2_000) {
    throw new InvalidRequest([{
      parameter: "target",
      message: "a host, a URL or a line of error text, at most 2,000 characters",
    }]);
  }
  const hosts = hostsIn(text);
  if (hosts.length === 0) return [];
  const account = await listedAccount(ctx, who);
  const vendors = await searchCandidates(ctx, account === undefined ? {} : { account });
  const found = new Map<string, { score: number; why: string; host: string; matched: string }>();
  hosts.forEach((host, order) => {
    for (const v of vendors) {
      const m = matchHost(host, v);
      if (m === null) continue;
      // Earlier hosts of the text weigh a little more (the failing call comes first).
      const score = m.score - order;
      const seen = found.get(v.slug);
      if (!seen || score > seen.score) {
        found.set(v.slug, { score, why: m.why, host, matched: m.matched });
      }
    }
  });
  const best = [...found].sort((a, b) => b[1].score - a[1].score || (a[0] < b[0] ? -1 : 1))
    .slice(0, LOOKUP_MATCHES_MAX);
  const out: LookupMatch[] = [];
  for (const [slug, m] of best) {
    const detail = await ctx.store.catalog.detail(slug, { start: 0, end: 0 }, ctx.clock.now());
    if (detail === null) continue;
    // A component is named by its vendor's own id (s3-eu-west-1) and its name.
    const component = componentFor(
      m.host,
      m.matched,
      detail.components.map((c) => ({ id: c.id, name: `${c.externalId ?? ""} ${c.name}` })),
    );
    out.push({
      slug,
      name: detail.service.name,
      why: m.why,
      component: detail.components.find((c) => c.id === component?.id)?.name ?? null,
      currentStatus: component
        ? detail.components.find((c) => c.id === component.id)?.status ??
          detail.service.currentStatus
        : detail.service.currentStatus,
      openIncidents: detail.incidents.filter((i) => isOpen(i.status)).map((i) => ({
        title: i.title,
        status: i.status,
        impact: i.impact,
        url: i.url,
      })),
    });
  }
  return out;
}
