/**
 * Alert rules. A rule watches a monitor, a group, a board or all
 * of an account's monitors and fires when what it watches reaches a level or worse (after
 * `forMinutes`, so a flap pages no one), when an incident opens, updates or resolves, or when a
 * maintenance is scheduled, starts or completes; it sends to routes, and tells of the recovery.
 * What fires is decided by the evaluator (`alert_evaluator.ts` and its passes).
 * @module
 */
import { z } from "zod";
import {
  Forbidden,
  InvalidRequest,
  type Issue,
  NotFound,
  PreconditionFailed,
  type RuleRecord,
  type RuleTarget,
  STATUS_LEVELS,
} from "../domain/mod.ts";
import { READ_ALERTS, WRITE_ALERTS } from "./alert_routes.ts";
import { randomToken } from "./_tokens.ts";
import { mergePatch } from "./_patch.ts";
import { accountDocVerbs, asStored } from "./_account_docs.ts";
import type { AppContext } from "./context.ts";
import { parse } from "./monitors.ts";
import { type Caller, callerAccount } from "./policy.ts";

/** Rules an account may keep. */
export const RULE_LIMIT = 200;

const Id = z.string().trim().min(1).max(100);
const Target = z.discriminatedUnion("kind", [
  z.object({ kind: z.enum(["monitor", "group", "board"]), id: Id }).strict(),
  z.object({ kind: z.literal("all") }).strict(),
]);
const Level = z.enum(STATUS_LEVELS);

const NewRuleInput = z.object({
  name: z.string().trim().min(1).max(100),
  target: Target,
  level: Level.nullable().default("PARTIAL_OUTAGE"),
  incidents: z.boolean().default(false),
  maintenance: z.boolean().default(false),
  forMinutes: z.number().int().min(0).max(1440).default(0),
  failingMinutes: z.number().int().min(1).max(1440).nullable().default(null),
  earlyWarning: z.boolean().default(false),
  recovery: z.boolean().default(true),
  routes: z.array(Id).max(20).default([]),
  escalation: Id.nullable().default(null),
  enabled: z.boolean().default(true),
}).strict();

/** What an update may change: merge-patch, an absent field unchanged. */
const RulePatchInput = mergePatch(NewRuleInput);

/** The account's ids the rule names that do not exist, as 400 issues. */
async function checkRefs(
  ctx: AppContext,
  accountId: string,
  rule: { target?: RuleTarget; routes?: readonly string[]; escalation?: string | null },
): Promise<void> {
  const issues: Issue[] = [];
  if (rule.escalation && await ctx.store.escalations.get(accountId, rule.escalation) === null) {
    issues.push({
      parameter: "escalation",
      message: `no escalation policy "${rule.escalation}" in this account`,
    });
  }
  const t = rule.target;
  if (t && t.kind !== "all") {
    const found = t.kind === "monitor"
      ? await ctx.store.monitors.get(accountId, t.id)
      : t.kind === "group"
      ? await ctx.store.groups.get(accountId, t.id)
      : await ctx.store.boards.get(accountId, t.id);
    if (found === null) {
      issues.push({ parameter: "target.id", message: `no ${t.kind} "${t.id}" in this account` });
    }
  }
  for (const [i, id] of (rule.routes ?? []).entries()) {
    if (await ctx.store.alertRoutes.get(accountId, id) === null) {
      issues.push({ parameter: `routes.${i}`, message: `no alert route "${id}" in this account` });
    }
  }
  if (issues.length) throw new InvalidRequest(issues);
}

/** A rule must send somewhere and watch something: a 400 naming the field otherwise. */
function checkWhole(
  r: Pick<RuleRecord, "routes" | "level" | "incidents" | "maintenance"> & {
    readonly escalation?: string | null;
    readonly failingMinutes?: number | null;
    readonly earlyWarning?: boolean;
  },
): void {
  if (r.routes.length === 0 && (r.escalation ?? null) === null) {
    throw new InvalidRequest([{
      parameter: "routes",
      message: "a rule sends somewhere: give routes, an escalation policy, or both",
    }]);
  }
  if (
    r.level === null && !r.incidents && !r.maintenance && (r.failingMinutes ?? null) === null &&
    !r.earlyWarning
  ) {
    throw new InvalidRequest([{
      parameter: "level",
      message: "a rule watches a level, incidents, maintenance, failing readings or early " +
        "warnings: give at least one",
    }]);
  }
}

/** Creates a rule (its target and routes must be the account's). */
export async function createRule(
  ctx: AppContext,
  who: Caller,
  input: unknown,
): Promise<RuleRecord> {
  const account = callerAccount(who, WRITE_ALERTS);
  const r = parse(NewRuleInput, input);
  checkWhole(r);
  await checkRefs(ctx, account.id, r);
  const made = await ctx.store.alertRules.create({
    id: `rule_${randomToken(12)}`,
    accountId: account.id,
    ...r,
    routes: [...new Set(r.routes)],
    createdAt: ctx.clock.now(),
  }, RULE_LIMIT);
  if (made === "limit" || made === "slug_taken") {
    throw new Forbidden(`This account already has ${RULE_LIMIT} alert rules, the most allowed`);
  }
  return made;
}

/** Changes a rule (`ifVersion`: the version the caller saw, or null). */
export async function updateRule(
  ctx: AppContext,
  who: Caller,
  id: string,
  input: unknown,
  ifVersion: number | null,
): Promise<RuleRecord> {
  const account = callerAccount(who, WRITE_ALERTS);
  const patch = parse(RulePatchInput, input);
  // The rule as the patch leaves it must still be whole (the same checks as a new one).
  const now = await ctx.store.alertRules.get(account.id, id);
  if (now === null) throw new NotFound("alert rule", id);
  checkWhole({ ...now, ...patch });
  await checkRefs(ctx, account.id, patch);
  const updated = await ctx.store.alertRules.update(
    account.id,
    id,
    {
      ...patch,
      ...(patch.routes ? { routes: [...new Set(patch.routes)] } : {}),
    },
    ctx.clock.now(),
    ifVersion,
  );
  if (updated === null) throw new NotFound("alert rule", id);
  if (updated === "conflict" || updated === "slug_taken") throw new PreconditionFailed();
  // Disabled: what it had queued and not sent yet stops (the alerts it opened still end).
  if (now.enabled && !updated.enabled) {
    await ctx.store.deliveries.cancelPending(updated.id, ctx.clock.now());
  }
  return updated;
}

const verbs = accountDocVerbs<RuleRecord, RuleRecord>({
  noun: "alert rule",
  docs: (store) => store.alertRules,
  read: READ_ALERTS,
  write: WRITE_ALERTS,
  views: asStored,
});
/** The account's rules, oldest first. */
export const listRules = verbs.list;
/** One of the account's rules. */
export const getRule = verbs.get;
/** Deletes a rule (what it already queued still goes). */
export const deleteRule = verbs.remove;
