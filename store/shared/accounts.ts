/**
 * Accounts and their members, once for both engines.
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
import { all, type Dialect, type Engine, first, type Query, type Row, run } from "./query.ts";

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

/** Adds `m`; false when its address is taken (by any account). */
function* insertMember(m: NewMember): Query<boolean> {
  const added = yield* run(
    `INSERT INTO members (id, account_id, email, role, password_hash, created_at)
     VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`,
    m.id,
    m.accountId,
    m.email,
    m.role,
    m.passwordHash,
    m.createdAt,
  );
  return added > 0;
}

/** The account with `id`, or null. */
export function* accountById(id: string): Query<Account | null> {
  const r = yield* first("SELECT * FROM accounts WHERE id = ?", id);
  return r ? toAccount(r) : null;
}

function* memberByEmail(d: Dialect, email: string): Query<MemberWithSecret | null> {
  const r = yield* first(`SELECT * FROM members WHERE ${d.caseless("email")}`, email);
  return r ? toMember(r) : null;
}

function* updated(sql: string, value: string | number, id: string): Query<Account | null> {
  const r = yield* first(`${sql} RETURNING *`, value, id);
  return r ? toAccount(r) : null;
}

/** The accounts noun over `engine`. */
export function accountStore(engine: Engine): AccountStore {
  const d = engine.dialect;
  return {
    create(account, owner) {
      return engine.write((function* () {
        if (yield* memberByEmail(d, owner.email)) return false;
        yield* run(
          "INSERT INTO accounts (id, name, plan, sla_target, created_at) VALUES (?, ?, ?, ?, ?)",
          account.id,
          account.name,
          account.plan,
          account.slaTarget,
          account.createdAt,
        );
        if (yield* insertMember(owner)) return true;
        // Another instance took the address meanwhile: nothing of this account is kept.
        throw new AddressTaken();
      })()).catch((err) => {
        if (err instanceof AddressTaken) return false;
        throw err;
      });
    },
    addMember: (member) => engine.once(insertMember(member)),
    byId: (id) => engine.once(accountById(id)),
    membershipByEmail(email) {
      return engine.read((function* () {
        const member = yield* memberByEmail(d, email);
        const account = member ? yield* accountById(member.accountId) : null;
        return member && account ? { account, member } : null;
      })());
    },
    setPlan: (accountId, plan) =>
      engine.once(updated("UPDATE accounts SET plan = ? WHERE id = ?", plan, accountId)),
    setRole(accountId, memberId, role) {
      return engine.write((function* () {
        // One role change of an account at a time: two demotions cannot both pass the count.
        yield* first(`SELECT id FROM accounts WHERE id = ?${d.forUpdate}`, accountId);
        const m = yield* first(
          "SELECT * FROM members WHERE id = ? AND account_id = ?",
          memberId,
          accountId,
        );
        if (!m) return null;
        if (m.role === "OWNER" && role !== "OWNER") {
          const owners = yield* first(
            "SELECT COUNT(*) AS n FROM members WHERE account_id = ? AND role = 'OWNER'",
            accountId,
          );
          if (Number(owners?.n ?? 0) <= 1) return "last_owner" as const;
        }
        yield* run("UPDATE members SET role = ? WHERE id = ?", role, memberId);
        const { passwordHash: _, ...member } = toMember({ ...m, role });
        return member;
      })());
    },
    setSlaTarget: (accountId, target) =>
      engine.once(updated("UPDATE accounts SET sla_target = ? WHERE id = ?", target, accountId)),
    list() {
      return engine.once((function* () {
        const rows = yield* all(
          `SELECT a.*,
             ${
            d.jsonArray(
              "email",
              "members WHERE account_id = a.id AND role = 'OWNER'",
              "created_at",
            )
          } AS owners,
             (SELECT COUNT(*) FROM members m WHERE m.account_id = a.id) AS member_count,
             (SELECT COUNT(*) FROM api_keys k WHERE k.account_id = a.id AND k.revoked_at IS NULL)
               AS key_count
           FROM accounts a ORDER BY a.created_at, ${d.binary("a.id")}`,
        );
        return rows.map((r) => ({
          ...toAccount(r),
          owners: JSON.parse(String(r.owners)) as string[],
          members: Number(r.member_count),
          activeKeys: Number(r.key_count),
        }));
      })());
    },
  };
}

/** Rolls an account creation back when its owner's address was taken meanwhile. */
class AddressTaken extends Error {}
