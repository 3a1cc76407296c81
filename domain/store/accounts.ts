/**
 * `store.accounts`: accounts and the people in them.
 * @module
 */
import type { Account, Member, Plan, Role } from "../account.ts";
import type { EpochMs } from "../time.ts";

/** A member with the stored password hash (only sign-in reads it). */
export interface MemberWithSecret extends Member {
  readonly passwordHash: string;
}

/** A member to store. */
export interface NewMember extends MemberWithSecret {
  readonly createdAt: EpochMs;
}

/** A member and the account they belong to. */
export interface MembershipRecord {
  readonly account: Account;
  readonly member: MemberWithSecret;
}

/** One row of the admin account listing. */
export interface AccountSummary extends Account {
  /** Owners' emails, oldest membership first. */
  readonly owners: readonly string[];
  readonly members: number;
  readonly activeKeys: number;
}

/** The accounts noun of the store. */
export interface AccountStore {
  /** Creates an account with its first member; false (nothing stored) when the email is taken. */
  create(account: Account, owner: NewMember): Promise<boolean>;
  /** Adds a member to an existing account; false when the email is taken. */
  addMember(member: NewMember): Promise<boolean>;
  /** The account with that id, or null. */
  byId(id: string): Promise<Account | null>;
  /** The member with that email (case-insensitive) and their account, or null. */
  membershipByEmail(email: string): Promise<MembershipRecord | null>;
  /** Sets an account's plan; the account after, or null when there is none. */
  setPlan(accountId: string, plan: Plan): Promise<Account | null>;
  /**
   * Gives a member of the account another role, unless that would leave the account without an
   * owner: the member after, "last_owner", or null when the account has no such member.
   */
  setRole(
    accountId: string,
    memberId: string,
    role: Role,
  ): Promise<Member | "last_owner" | null>;
  /** Sets an account's SLA target (percent); the account after, or null when there is none. */
  setSlaTarget(accountId: string, target: number): Promise<Account | null>;
  /** Every account, oldest first, with owner emails, member count and active key count. */
  list(): Promise<readonly AccountSummary[]>;
}
