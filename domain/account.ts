/**
 * Accounts, plans and roles (DESIGN §8).
 * @module
 */
import type { EpochMs } from "./time.ts";

/** Plans, lowest first. */
export const PLANS = ["FREE", "PRO", "TEAM", "ENTERPRISE"] as const;
/** One of {@link PLANS}. */
export type Plan = (typeof PLANS)[number];

/** Member roles, most powerful first. */
export const ROLES = ["OWNER", "ADMIN", "MEMBER"] as const;
/** One of {@link ROLES}. */
export type Role = (typeof ROLES)[number];

/** True when `plan` is `required` or higher. */
export function planAtLeast(plan: Plan, required: Plan): boolean {
  return PLANS.indexOf(plan) >= PLANS.indexOf(required);
}

/** Default SLA target in percent. */
export const DEFAULT_SLA_TARGET = 99.9;

/** An account: what keys, monitors and reports belong to. */
export interface Account {
  readonly id: string;
  readonly name: string;
  readonly plan: Plan;
  /** SLA target in percent (e.g. 99.9). */
  readonly slaTarget: number;
  readonly createdAt: EpochMs;
}

/** A person's membership of an account. */
export interface Member {
  readonly id: string;
  readonly accountId: string;
  readonly email: string;
  readonly role: Role;
}
