/**
 * Accounts and their members on PostgreSQL.
 * @module
 */
import type {
  Account,
  AccountStore,
  MemberWithSecret,
  NewMember,
  Plan,
  Role,
} from "../../domain/mod.ts";
import { read, type Row, type Sql, write } from "./db.ts";

/** An accounts row as an account. */
export function toAccount(r: Row): Account {
  return {
    id: String(r.id),
    name: String(r.name),
    plan: r.plan as Plan,
    slaTarget: Number(r.sla_target),
    createdAt: Number(r.created_at),
  };
}

function toMember(r: Row): MemberWithSecret {
  return {
    id: String(r.id),
    accountId: String(r.account_id),
    email: String(r.email),
    role: r.role as Role,
    passwordHash: String(r.password_hash),
  };
}

async function insertMember(sql: Sql, m: NewMember): Promise<boolean> {
  const rows = await sql`INSERT INTO members (id, account_id, email, role, password_hash,
      created_at)
    VALUES (${m.id}, ${m.accountId}, ${m.email}, ${m.role}, ${m.passwordHash}, ${m.createdAt})
    ON CONFLICT ((lower(email))) DO NOTHING RETURNING id`;
  return rows.length > 0;
}

/** The account with `id`, or null. */
export async function accountById(sql: Sql, id: string): Promise<Account | null> {
  const [r] = await sql`SELECT * FROM accounts WHERE id = ${id}`;
  return r ? toAccount(r) : null;
}

async function memberByEmail(sql: Sql, email: string): Promise<MemberWithSecret | null> {
  const [r] = await sql`SELECT * FROM members WHERE lower(email) = lower(${email})`;
  return r ? toMember(r) : null;
}

/** The accounts noun over the pool `sql`. */
export function accountStore(sql: Sql): AccountStore {
  return {
    create(account, owner) {
      return write(sql, async (tx) => {
        if (await memberByEmail(tx, owner.email)) return false;
        await tx`INSERT INTO accounts (id, name, plan, sla_target, created_at)
          VALUES (${account.id}, ${account.name}, ${account.plan}, ${account.slaTarget},
            ${account.createdAt})`;
        if (await insertMember(tx, owner)) return true;
        // Another instance took the address meanwhile: nothing of this account is kept.
        throw new AddressTaken();
      }).catch((err) => {
        if (err instanceof AddressTaken) return false;
        throw err;
      });
    },
    addMember: (member) => insertMember(sql, member),
    byId: (id) => accountById(sql, id),
    membershipByEmail(email) {
      return read(sql, async (tx) => {
        const member = await memberByEmail(tx, email);
        const account = member ? await accountById(tx, member.accountId) : null;
        return member && account ? { account, member } : null;
      });
    },
    async setPlan(accountId, plan) {
      const [r] = await sql`UPDATE accounts SET plan = ${plan} WHERE id = ${accountId}
        RETURNING *`;
      return r ? toAccount(r) : null;
    },
    async setSlaTarget(accountId, target) {
      const [r] = await sql`UPDATE accounts SET sla_target = ${target} WHERE id = ${accountId}
        RETURNING *`;
      return r ? toAccount(r) : null;
    },
    async list() {
      const rows = await sql`SELECT a.*,
          COALESCE((SELECT json_agg(m.email ORDER BY m.created_at)::text FROM members m
            WHERE m.account_id = a.id AND m.role = 'OWNER'), '[]') AS owners,
          (SELECT COUNT(*) FROM members m WHERE m.account_id = a.id) AS member_count,
          (SELECT COUNT(*) FROM api_keys k WHERE k.account_id = a.id AND k.revoked_at IS NULL)
            AS key_count
        FROM accounts a ORDER BY a.created_at, a.id COLLATE "C"`;
      return rows.map((r) => ({
        ...toAccount(r),
        owners: JSON.parse(String(r.owners)) as string[],
        members: Number(r.member_count),
        activeKeys: Number(r.key_count),
      }));
    },
  };
}

/** Rolls an account creation back when its owner's address was taken meanwhile. */
class AddressTaken extends Error {}
