/**
 * Status pages an account adds by URL (#47): statusd reads the page once through the poller's
 * guard (its platform, its own name, its components), and the account can then monitor it like
 * any catalog vendor. One page is one vendor, polled once, however many accounts add it; it is
 * listed for the accounts that added it until the operator promotes it into this instance's
 * catalog. FREE accounts add up to {@link FREE_ADDED_VENDOR_LIMIT}, others up to
 * {@link ADDED_VENDOR_LIMIT}.
 * @module
 */
import { z } from "zod";
import {
  type AddedVendor,
  type AddedVendorView,
  Conflict,
  InvalidRequest,
  NotFound,
  PageUnreadable,
  PlanRequired,
  type Platform,
  statusPageKey,
} from "../domain/mod.ts";
import type { AppContext } from "./context.ts";
import { parse, READ_MONITORS, WRITE_MONITORS } from "./monitors.ts";
import { type Caller, callerAccount } from "./policy.ts";

/** Pages a FREE account may add. */
export const FREE_ADDED_VENDOR_LIMIT = 3;
/** Pages any other account may add. */
export const ADDED_VENDOR_LIMIT = 50;

/** What adding a page takes. */
export const AddVendorInput = z.object({
  statusPageUrl: z.string().trim().min(1).max(2048).superRefine((u, ctx) => {
    if (statusPageKey(u) === null) {
      ctx.addIssue({
        code: "custom",
        message: "an absolute http(s) URL of a status page, e.g. https://status.example.com",
      });
    } else if (new URL(u).username !== "" || new URL(u).password !== "") {
      ctx.addIssue({ code: "custom", message: "a status page URL carries no user or password" });
    }
  }),
}).strict();

/** What {@link addVendorByUrl} did: `created` is false for a page already listed or added. */
export interface AddedVendorResult {
  readonly created: boolean;
  readonly vendor: AddedVendorView;
}

/** The slug a page's name gives (`"Crisp Status"` → `crisp-status`), or one from its host. */
function slugOf(name: string, host: string): string {
  const from = (text: string) => {
    const words = text.normalize("NFKD").toLowerCase().split(/[^a-z0-9]/).filter((w) => w !== "");
    let slug = "";
    for (const w of words) {
      const next = slug === "" ? w : `${slug}-${w}`;
      if (next.length > 60) break;
      slug = next;
    }
    return slug;
  };
  return from(name) || from(host.startsWith("status.") ? host.slice(7) : host) || "vendor";
}

/** The view of a stored vendor the account has (or that everyone sees). */
async function viewOf(
  ctx: AppContext,
  slug: string,
  addedAt: number | null,
  listed: AddedVendorView["listed"],
  components?: readonly string[],
): Promise<AddedVendorView> {
  const row = await ctx.store.catalog.service(slug);
  if (row === null) throw new NotFound("service", slug);
  const names = components ??
    (await ctx.store.catalog.detail(slug, { start: 0, end: 0 }, ctx.clock.now()))?.components
      .map((c) => c.name) ??
    [];
  return {
    slug,
    name: row.name,
    statusPageUrl: row.statusPageUrl,
    platform: row.platform,
    currentStatus: row.currentStatus,
    components: [...names],
    addedAt,
    listed,
  };
}

/**
 * Adds the status page at `input.statusPageUrl` to the caller's account: a page everyone sees
 * listed already is answered as it is (nothing added); one another account added is shared;
 * a new one is read once (422 `page_unreadable` with the reason when it cannot be) and stored.
 */
export async function addVendorByUrl(
  ctx: AppContext,
  who: Caller,
  input: unknown,
): Promise<AddedVendorResult> {
  const account = callerAccount(who, WRITE_MONITORS);
  const { statusPageUrl } = parse(AddVendorInput, input);
  const key = statusPageKey(statusPageUrl)!;
  const known = await ctx.store.catalog.byPageKey(key);
  if (known !== null && known.origin !== "account") {
    return { created: false, vendor: await viewOf(ctx, known.slug, null, "catalog") };
  }
  const limit = account.plan === "FREE" ? FREE_ADDED_VENDOR_LIMIT : ADDED_VENDOR_LIMIT;
  const mine = await ctx.store.catalog.accountVendors(account.id);
  const already = known === null ? undefined : mine.find((v) => v.slug === known.slug);
  if (already) {
    return { created: false, vendor: await viewOf(ctx, already.slug, already.addedAt, "account") };
  }
  if (mine.length >= limit) throw limitError(account.plan);
  let read: { name: string; url: string; platform: Platform; components: readonly string[] };
  if (known !== null) {
    const row = (await ctx.store.catalog.service(known.slug))!;
    read = { name: row.name, url: row.statusPageUrl, platform: row.platform, components: [] };
  } else {
    if (!ctx.readStatusPage) throw new PageUnreadable("unsupported", "this statusd adds no pages");
    const found = await ctx.readStatusPage(statusPageUrl);
    if (!found.ok) throw new PageUnreadable(found.reason, found.message);
    read = found;
  }
  const host = new URL(read.url).hostname;
  const result = await ctx.store.catalog.addVendor(
    account.id,
    {
      name: read.name,
      slug: slugOf(read.name, host),
      statusPageUrl: read.url,
      platform: read.platform,
      domains: [],
    },
    ctx.clock.now(),
    limit,
  );
  if (result.kind === "limit") throw limitError(account.plan);
  if (result.kind === "listed") {
    return { created: false, vendor: await viewOf(ctx, result.slug, null, "catalog") };
  }
  ctx.log.info("status page added", {
    account: account.id,
    vendor: result.slug,
    platform: read.platform,
  });
  return {
    created: true,
    vendor: await viewOf(ctx, result.slug, ctx.clock.now(), "account", read.components),
  };
}

function limitError(plan: string): Error {
  return plan === "FREE"
    ? new PlanRequired("PRO", `Adding more than ${FREE_ADDED_VENDOR_LIMIT} status pages`)
    : new Conflict(`This account has added ${ADDED_VENDOR_LIMIT} status pages, the most it may`);
}

/** The status pages the caller's account added, most recent first. */
export async function listAddedVendors(ctx: AppContext, who: Caller): Promise<AddedVendor[]> {
  const account = callerAccount(who, READ_MONITORS);
  return [...await ctx.store.catalog.accountVendors(account.id)];
}

/**
 * Removes one of the caller's added pages (404 when it has no such one). Its monitors of it are
 * kept; the page is no longer polled once no account has it.
 */
export async function removeAddedVendor(ctx: AppContext, who: Caller, slug: string): Promise<void> {
  const account = callerAccount(who, WRITE_MONITORS);
  if (!(await ctx.store.catalog.removeAccountVendor(account.id, slug))) {
    throw new NotFound("added vendor", slug);
  }
}

/** Lists an added page for everyone on this instance (the operator's act). */
export async function promoteVendor(ctx: AppContext, slug: string): Promise<void> {
  if (!(await ctx.store.catalog.promote(slug))) {
    throw new InvalidRequest([{
      parameter: "slug",
      message:
        `"${slug}" is not a status page an account added (catalog vendors are listed already)`,
    }]);
  }
}
