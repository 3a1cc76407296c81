/**
 * Settings > MCP: the applications connected to an account, and disconnecting one.
 * @module
 */
import type { Principal, Scope } from "../../domain/mod.ts";
import type { AppContext } from "../context.ts";

/** One connected application as Settings > MCP lists it. */
export interface ConnectedClient {
  readonly clientId: string;
  readonly name: string;
  /** Hosts of its redirect URIs: the part of its identity that is not self-asserted. */
  readonly redirectHosts: readonly string[];
  readonly scopes: readonly Scope[];
  readonly connectedAt: number;
  readonly lastUsedAt: number | null;
}

/** The OAuth clients holding live grants on the caller's account, most recent first. */
export async function listConnectedClients(
  ctx: AppContext,
  who: Extract<Principal, { kind: "session" }>,
): Promise<ConnectedClient[]> {
  const byClient = new Map<string, ConnectedClient>();
  for (const row of await ctx.store.oauth.connectedClients(who.account.id)) {
    const seen = byClient.get(row.clientId);
    const hosts = row.redirectUris.map((u) => {
      try {
        return new URL(u).host || u;
      } catch {
        return u;
      }
    });
    byClient.set(row.clientId, {
      clientId: row.clientId,
      name: row.clientName,
      redirectHosts: [...new Set(hosts)],
      scopes: [...new Set([...(seen?.scopes ?? []), ...row.scopes])],
      connectedAt: Math.min(seen?.connectedAt ?? row.createdAt, row.createdAt),
      lastUsedAt: Math.max(seen?.lastUsedAt ?? 0, row.lastUsedAt ?? 0) || null,
    });
  }
  return [...byClient.values()];
}

/** Disconnects a client from the caller's account: every grant and token it holds ends now. */
export async function revokeClient(
  ctx: AppContext,
  who: Extract<Principal, { kind: "session" }>,
  clientId: string,
): Promise<number> {
  const n = await ctx.store.oauth.disconnectClient(who.account.id, clientId, ctx.clock.now());
  if (n) ctx.log.info("oauth client disconnected", { clientId, accountId: who.account.id });
  return n;
}
