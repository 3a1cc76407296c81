/**
 * Escalation policies and acknowledgement. A policy is ordered steps — routes and
 * the minutes to wait before each — repeated up to `repeat` more times; a rule that names one
 * queues every step of it when it fires (each with its own `notBefore`), and acknowledging the
 * alert (the link in the message, or the API) stops the steps still waiting, as the recovery
 * does.
 * @module
 */
import { z } from "zod";
import {
  type EscalationRecord,
  Forbidden,
  InvalidRequest,
  type Issue,
  NotFound,
  PreconditionFailed,
} from "../domain/mod.ts";
import { READ_ALERTS, WRITE_ALERTS } from "./alert_routes.ts";
import { isMacOf, macOf } from "./_secrets.ts";
import { randomToken } from "./_tokens.ts";
import { mergePatch } from "./_patch.ts";
import { accountDocVerbs, asStored } from "./_account_docs.ts";
import type { AppContext } from "./context.ts";
import { parse } from "./monitors.ts";
import { type Caller, callerAccount } from "./policy.ts";

/** Policies an account may keep. */
export const ESCALATION_LIMIT = 50;

const Step = z.object({
  routes: z.array(z.string().trim().min(1).max(100)).min(1).max(10),
  afterMinutes: z.number().int().min(0).max(1440),
}).strict();
const NewInput = z.object({
  name: z.string().trim().min(1).max(100),
  steps: z.array(Step).min(1).max(10),
  repeat: z.number().int().min(0).max(5).default(0),
}).strict();
/** What an update may change: merge-patch, an absent field unchanged. */
const PatchInput = mergePatch(NewInput);

async function checkRoutes(
  ctx: AppContext,
  accountId: string,
  steps: readonly { routes: readonly string[] }[] | undefined,
) {
  const issues: Issue[] = [];
  for (const [i, s] of (steps ?? []).entries()) {
    for (const [j, id] of s.routes.entries()) {
      if (await ctx.store.alertRoutes.get(accountId, id) === null) {
        issues.push({
          parameter: `steps.${i}.routes.${j}`,
          message: `no alert route "${id}" in this account`,
        });
      }
    }
  }
  if (issues.length) throw new InvalidRequest(issues);
}

/** Creates a policy (its routes must be the account's). */
export async function createEscalation(
  ctx: AppContext,
  who: Caller,
  input: unknown,
): Promise<EscalationRecord> {
  const account = callerAccount(who, WRITE_ALERTS);
  const e = parse(NewInput, input);
  await checkRoutes(ctx, account.id, e.steps);
  const made = await ctx.store.escalations.create({
    id: `esc_${randomToken(12)}`,
    accountId: account.id,
    ...e,
    createdAt: ctx.clock.now(),
  }, ESCALATION_LIMIT);
  if (made === "limit" || made === "slug_taken") {
    throw new Forbidden(`This account already has ${ESCALATION_LIMIT} escalation policies`);
  }
  return made;
}

/** Changes a policy (alerts already queued keep the steps they were given). */
export async function updateEscalation(
  ctx: AppContext,
  who: Caller,
  id: string,
  input: unknown,
  ifVersion: number | null,
): Promise<EscalationRecord> {
  const account = callerAccount(who, WRITE_ALERTS);
  const patch = parse(PatchInput, input);
  await checkRoutes(ctx, account.id, patch.steps);
  const updated = await ctx.store.escalations.update(
    account.id,
    id,
    patch,
    ctx.clock.now(),
    ifVersion,
  );
  if (updated === null) throw new NotFound("escalation policy", id);
  if (updated === "conflict" || updated === "slug_taken") throw new PreconditionFailed();
  return updated;
}

/** The secret acknowledge links are signed under. */
const ACKNOWLEDGE_SECRET = "acknowledge-links";

/**
 * The acknowledge link of a notification: its id and a token (an HMAC of the id under a server
 * secret). The id travels in every payload of the alert; the token only in this link.
 */
export async function acknowledgeLink(ctx: AppContext, notificationId: string): Promise<string> {
  const token = await macOf(ctx, ACKNOWLEDGE_SECRET, notificationId);
  return `${ctx.settings.publicUrl}/alerts/acknowledge/${
    encodeURIComponent(notificationId)
  }.${token}`;
}

/**
 * Acknowledges the alert a link (`<notification id>.<token>`) names: its steps still waiting
 * stop. How many stopped (0 when it was already acknowledged, recovered or fully sent); a link
 * without its right token is a 404, as an unknown one.
 */
export async function acknowledgeByLink(ctx: AppContext, link: string): Promise<number> {
  const m = /^(ntf_[0-9a-f]{24})\.([A-Za-z0-9_-]{43})$/.exec(link);
  if (!m || !await isMacOf(ctx, ACKNOWLEDGE_SECRET, m[1]!, m[2]!)) {
    throw new NotFound("alert", link.slice(0, 40));
  }
  return await ctx.store.deliveries.acknowledge(m[1]!, ctx.clock.now());
}

/** Acknowledges the alert of one of the account's events (`alerts:write`). */
export async function acknowledgeEvent(ctx: AppContext, who: Caller, id: string): Promise<number> {
  const account = callerAccount(who, WRITE_ALERTS);
  const got = await ctx.store.deliveries.get(account.id, id);
  if (got === null) throw new NotFound("alert event", id);
  return await ctx.store.deliveries.acknowledge(got.delivery.notificationId, ctx.clock.now());
}

const verbs = accountDocVerbs<EscalationRecord, EscalationRecord>({
  noun: "escalation policy",
  docs: (store) => store.escalations,
  read: READ_ALERTS,
  write: WRITE_ALERTS,
  views: asStored,
});
/** The account's escalation policies, oldest first. */
export const listEscalations = verbs.list;
/** One of the account's escalation policies. */
export const getEscalation = verbs.get;
/** Deletes a policy (`ifVersion`: the version the caller saw, or null). */
export const deleteEscalation = verbs.remove;
