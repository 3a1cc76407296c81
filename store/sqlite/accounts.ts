/**
 * Accounts and their members on SQLite.
 * @module
 */
import type {
  Account,
  AccountStore,
  AccountSummary,
  MemberWithSecret,
  NewMember,
  Plan,
  Role,
} from "../../domain/mod.ts";
import { type Db, readTransaction, transaction } from "./db.ts";
import { promised } from "./promised.ts";

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

function insertMember(db: Db, m: NewMember): void {
  db.prepare(
    "INSERT INTO members (id, account_id, email, role, password_hash, created_at) VALUES (?, ?, ?, ?, ?, ?)",
  ).run(m.id, m.accountId, m.email, m.role, m.passwordHash, m.createdAt);
}

function accountById(db: Db, id: string): Account | null {
  const r = db.prepare("SELECT * FROM accounts WHERE id = ?").get(id) as AccountRow | undefined;
  return r ? toAccount(r) : null;
}

function memberByEmail(db: Db, email: string): MemberWithSecret | null {
  const r = db.prepare("SELECT * FROM members WHERE email = ?").get(email) as
    | MemberRow
    | undefined;
  return r ? toMember(r) : null;
}

function listAccountSummaries(db: Db): AccountSummary[] {
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

/** The accounts noun over `db`. */
export function accountStore(db: Db): AccountStore {
  const update = (sql: string, value: string | number, accountId: string) =>
    transaction(
      db,
      () => db.prepare(sql).run(value, accountId).changes > 0 ? accountById(db, accountId) : null,
    );
  return promised<AccountStore>({
    create(account, owner) {
      return transaction(db, () => {
        if (memberByEmail(db, owner.email)) return false;
        db.prepare(
          "INSERT INTO accounts (id, name, plan, sla_target, created_at) VALUES (?, ?, ?, ?, ?)",
        ).run(account.id, account.name, account.plan, account.slaTarget, account.createdAt);
        insertMember(db, owner);
        return true;
      });
    },
    addMember(member) {
      return transaction(db, () => {
        if (memberByEmail(db, member.email)) return false;
        insertMember(db, member);
        return true;
      });
    },
    byId: (id) => accountById(db, id),
    membershipByEmail(email) {
      return readTransaction(db, () => {
        const member = memberByEmail(db, email);
        const account = member ? accountById(db, member.accountId) : null;
        return member && account ? { account, member } : null;
      });
    },
    setPlan: (accountId, plan: Plan) =>
      update("UPDATE accounts SET plan = ? WHERE id = ?", plan, accountId),
    setSlaTarget: (accountId, target) =>
      update("UPDATE accounts SET sla_target = ? WHERE id = ?", target, accountId),
    list: () => listAccountSummaries(db),
  });
}
