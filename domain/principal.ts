/**
 * Who is calling. Verbs take a principal, never a request.
 * @module
 */
import type { Account, Member } from "./account.ts";
import type { Scope } from "./scope.ts";

/** The caller of an operation. */
export type Principal =
  | { readonly kind: "anonymous" }
  | {
    readonly kind: "api_key";
    readonly account: Account;
    readonly keyId: string;
    readonly scopes: readonly Scope[];
  }
  | {
    readonly kind: "oauth";
    readonly account: Account;
    readonly clientId: string;
    readonly scopes: readonly Scope[];
    readonly resource: string;
  }
  | { readonly kind: "session"; readonly account: Account; readonly member: Member };

/** The anonymous caller. */
export const ANONYMOUS: Principal = { kind: "anonymous" };

/**
 * True when the principal may use `scope`: anonymous callers and signed-in people hold no
 * scope list (the operation decides whether it is open); keys and tokens must hold it.
 */
export function holdsScope(p: Principal, scope: Scope): boolean {
  if (p.kind === "api_key" || p.kind === "oauth") return p.scopes.includes(scope);
  return p.kind === "session";
}
