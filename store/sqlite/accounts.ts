/**
 * Accounts and their members: named queries only.
 * @module
 */
import type { Account, EpochMs, Member, Plan, Role } from "../domain/mod.ts";
import type { Db } from "./db.ts";

interface AccountRow {
  id: string;
  name: string;
  plan: string;
  sla_target: number;
  created_at: number;
}

interface MemberRow {
  id: string;
  account_id: string;
  email: string;
  role: string;
  password_hash: string;
}

/** A member with the stored password hash (only sign-in reads it). */
export interface MemberWithSecret extends Member {
  readonly passwordHash: string;
}

/** One row of the admin account listing. */
export interface AccountSummary extends Account {
  readonly owners: readonly string[];
  readonly members: number;
  readonly activeKeys: number;
}

function toAccount(r: AccountRow): Account {
  return {
    id: r.id,
    name: r.name,
    plan: r.plan as Plan,
    slaTarget: r.sla_target,
    createdAt: r.created_at,
  };
}

function toMember(r: MemberRow): MemberWithSecret {
  return {
    id: r.id,
    accountId: r.account_id,
    email: r.email,
    role: r.role as Role,
    passwordHash: r.password_hash,
  };
}

/** Inserts a new account. */
export function insertAccount(db: Db, a: Account): void {
  db.prepare(
    "INSERT INTO accounts (id, name, plan, sla_target, created_at) VALUES (?, ?, ?, ?, ?)",
  ).run(a.id, a.name, a.plan, a.slaTarget, a.createdAt);
}

/** Inserts a member of an existing account. */
export function insertMember(
  db: Db,
  m: Member & { readonly passwordHash: string; readonly createdAt: EpochMs },
): void {
  db.prepare(
    "INSERT INTO members (id, account_id, email, role, password_hash, created_at) VALUES (?, ?, ?, ?, ?, ?)",
  ).run(m.id, m.accountId, m.email, m.role, m.passwordHash, m.createdAt);
}

/** The account with that id, or null. */
export function accountById(db: Db, id: string): Account | null {
  const r = db.prepare("SELECT * FROM accounts WHERE id = ?").get(id) as AccountRow | undefined;
  return r ? toAccount(r) : null;
}

/** The member with that email (case-insensitive), with the password hash, or null. */
export function memberByEmail(db: Db, email: string): MemberWithSecret | null {
  const r = db.prepare("SELECT * FROM members WHERE email = ?").get(email) as
    | MemberRow
    | undefined;
  return r ? toMember(r) : null;
}

/** The member with that id, or null. */
export function memberById(db: Db, id: string): MemberWithSecret | null {
  const r = db.prepare("SELECT * FROM members WHERE id = ?").get(id) as MemberRow | undefined;
  return r ? toMember(r) : null;
}

/** Sets an account's plan; false when no such account. */
export function updateAccountPlan(db: Db, accountId: string, plan: Plan): boolean {
  return db.prepare("UPDATE accounts SET plan = ? WHERE id = ?").run(plan, accountId).changes > 0;
}

/** Sets an account's SLA target (percent); false when no such account. */
export function updateAccountSlaTarget(db: Db, accountId: string, target: number): boolean {
  return db.prepare("UPDATE accounts SET sla_target = ? WHERE id = ?").run(target, accountId)
    .changes > 0;
}

/** Every account, oldest first, with owner emails, member count and active key count. */
export function listAccountSummaries(db: Db): AccountSummary[] {
  const rows = db.prepare(
    `SELECT a.*,
       (SELECT json_group_array(email) FROM (SELECT email FROM members
          WHERE account_id = a.id AND role = 'OWNER' ORDER BY created_at)) AS owners,
       (SELECT COUNT(*) FROM members WHERE account_id = a.id) AS member_count,
       (SELECT COUNT(*) FROM api_keys WHERE account_id = a.id AND revoked_at IS NULL) AS key_count
     FROM accounts a ORDER BY a.created_at, a.id`,
  ).all() as unknown as (AccountRow & {
    owners: string;
    member_count: number;
    key_count: number;
  })[];
  return rows.map((r) => ({
    ...toAccount(r),
    owners: JSON.parse(r.owners) as string[],
    members: r.member_count,
    activeKeys: r.key_count,
  }));
}
