/**
 * Conformance: `store.oauth` (clients, single-use codes, grants, token rotation, revocation).
 * @module
 */
import { deepStrictEqual, equal, ok } from "node:assert/strict";
import type { NewOAuthToken, OAuthClientRecord, Store } from "../../../domain/mod.ts";
import { accountOf, memberOf } from "./accounts.ts";
import type { Case } from "./_support.ts";
import { DAY, MIN, T } from "./_support.ts";

const client: OAuthClientRecord = {
  id: "sdc_1",
  secretHash: null,
  name: "Claude",
  redirectUris: ["http://127.0.0.1/callback", "https://app.test/cb"],
  authMethod: "none",
  metadata: { client_name: "Claude", grant_types: ["authorization_code", "refresh_token"] },
  createdAt: T,
};

const code = (hash: string, at = T) => ({
  codeHash: hash,
  clientId: client.id,
  accountId: "a1",
  memberId: "m1",
  redirectUri: "http://127.0.0.1/callback",
  codeChallenge: "c".repeat(43),
  scopes: ["mcp:invoke", "status:read"] as const,
  resource: "https://statusd.test/api/mcp",
  createdAt: at,
  expiresAt: at + 5 * MIN,
});

const grant = (id: string, at = T) => ({
  id,
  clientId: client.id,
  accountId: "a1",
  memberId: "m1",
  scopes: ["mcp:invoke", "status:read"] as ("mcp:invoke" | "status:read")[],
  resource: "https://statusd.test/api/mcp",
  createdAt: at,
});

const pair = (grantId: string, tag: string, at = T): NewOAuthToken[] => [
  {
    tokenHash: `access-${tag}`,
    grantId,
    kind: "access",
    scopes: ["mcp:invoke"],
    createdAt: at,
    expiresAt: at + 60 * MIN,
  },
  {
    tokenHash: `refresh-${tag}`,
    grantId,
    kind: "refresh",
    scopes: ["mcp:invoke", "status:read"],
    createdAt: at,
    expiresAt: at + 30 * DAY,
  },
];

async function setup(store: Store) {
  await store.accounts.create(accountOf("a1"), memberOf("m1", "a1", "o@x.test"));
  await store.oauth.registerClient(client);
}

export const oauthCases: Case[] = [
  {
    name: "oauth: a registered client reads back as stored",
    async run(store) {
      await setup(store);
      deepStrictEqual(await store.oauth.client("sdc_1"), client);
      await store.oauth.registerClient({
        ...client,
        id: "sdc_2",
        secretHash: "h",
        authMethod: "client_secret_basic",
      });
      equal((await store.oauth.client("sdc_2"))?.secretHash, "h");
      equal(await store.oauth.client("nope"), null);
    },
  },
  {
    name:
      "oauth: a code is stored, read, redeemed once into a grant and tokens; old expired codes go",
    async run(store) {
      await setup(store);
      await store.oauth.issueCode(code("old", T - 2 * DAY), T - 3 * DAY);
      await store.oauth.issueCode(code("c1"), T - DAY);
      equal(await store.oauth.code("old"), null, "expired before the cutoff: deleted");
      deepStrictEqual(await store.oauth.code("c1"), { ...code("c1"), usedAt: null, grantId: null });
      equal(
        await store.oauth.redeemCode({
          codeHash: "c1",
          at: T + MIN,
          grant: grant("g1"),
          tokens: pair("g1", "1"),
        }),
        "redeemed",
      );
      deepStrictEqual(
        [(await store.oauth.code("c1"))?.usedAt, (await store.oauth.code("c1"))?.grantId],
        [T + MIN, "g1"],
      );
      const access = (await store.oauth.token("access-1"))!;
      deepStrictEqual(
        [access.token.kind, access.token.scopes, access.grant.id, access.account?.id],
        ["access", ["mcp:invoke"], "g1", "a1"],
      );
      equal(await store.oauth.token("nope"), null);
    },
  },
  {
    name:
      "oauth: a second redemption of a code stores nothing and revokes the grant the first issued",
    async run(store) {
      await setup(store);
      await store.oauth.issueCode(code("c1"), 0);
      await store.oauth.redeemCode({
        codeHash: "c1",
        at: T + MIN,
        grant: grant("g1"),
        tokens: pair("g1", "1"),
      });
      equal(
        await store.oauth.redeemCode({
          codeHash: "c1",
          at: T + 2 * MIN,
          grant: grant("g2"),
          tokens: pair("g2", "2"),
        }),
        "reused",
      );
      equal(await store.oauth.token("access-2"), null, "nothing of the replay is stored");
      const first = (await store.oauth.token("refresh-1"))!;
      deepStrictEqual([first.grant.revokedAt, first.token.revokedAt], [T + 2 * MIN, T + 2 * MIN]);
    },
  },
  {
    name:
      "oauth: a refresh token rotates once, keeping its replay; expired tokens and old replays are pruned",
    async run(store) {
      await setup(store);
      await store.oauth.issueCode(code("c1"), 0);
      await store.oauth.redeemCode({
        codeHash: "c1",
        at: T,
        grant: grant("g1"),
        tokens: pair("g1", "1"),
      });
      const rotation = {
        tokenHash: "refresh-1",
        at: T + 10 * MIN,
        replay: "sealed-pair-2",
        tokens: pair("g1", "2", T + 10 * MIN),
        pruneBefore: T - DAY,
        replayBefore: T + 9 * MIN,
      };
      equal(await store.oauth.rotateRefreshToken(rotation), true);
      const old = (await store.oauth.token("refresh-1"))!.token;
      deepStrictEqual([old.rotatedAt, old.replay, old.revokedAt], [
        T + 10 * MIN,
        "sealed-pair-2",
        null,
      ]);
      ok(await store.oauth.token("refresh-2"));
      equal(
        await store.oauth.rotateRefreshToken({
          ...rotation,
          tokens: pair("g1", "3", T + 11 * MIN),
        }),
        false,
        "already rotated",
      );
      equal(await store.oauth.token("refresh-3"), null);
      equal(
        await store.oauth.rotateRefreshToken({
          tokenHash: "refresh-2",
          at: T + 70 * MIN + DAY,
          replay: "sealed-pair-4",
          tokens: pair("g1", "4", T + 70 * MIN + DAY),
          pruneBefore: T + 70 * MIN,
          replayBefore: T + 69 * MIN + DAY,
        }),
        true,
      );
      equal(await store.oauth.token("access-1"), null, "expired before pruneBefore: deleted");
      equal((await store.oauth.token("refresh-1"))!.token.replay, null, "old replay forgotten");
      equal((await store.oauth.token("refresh-2"))!.token.replay, "sealed-pair-4");
    },
  },
  {
    name: "oauth: revoking a token or a grant; a revoked token cannot rotate",
    async run(store) {
      await setup(store);
      await store.oauth.issueCode(code("c1"), 0);
      await store.oauth.redeemCode({
        codeHash: "c1",
        at: T,
        grant: grant("g1"),
        tokens: pair("g1", "1"),
      });
      equal(await store.oauth.revokeToken("access-1", T + MIN), true);
      equal(await store.oauth.revokeToken("access-1", T + 2 * MIN), false);
      equal(await store.oauth.revokeToken("nope", T), false);
      equal((await store.oauth.token("access-1"))!.token.revokedAt, T + MIN);
      equal((await store.oauth.token("refresh-1"))!.token.revokedAt, null);
      equal(await store.oauth.revokeGrant("g1", T + 3 * MIN), true);
      equal(await store.oauth.revokeGrant("g1", T + 4 * MIN), false);
      equal((await store.oauth.token("refresh-1"))!.token.revokedAt, T + 3 * MIN);
      equal(
        await store.oauth.rotateRefreshToken({
          tokenHash: "refresh-1",
          at: T + 5 * MIN,
          replay: "x",
          tokens: pair("g1", "2"),
          pruneBefore: 0,
          replayBefore: 0,
        }),
        false,
      );
    },
  },
  {
    name:
      "oauth: grants are touched forward only, listed per account with their client, and disconnected per client",
    async run(store) {
      await setup(store);
      await store.oauth.registerClient({
        ...client,
        id: "sdc_2",
        name: "Other",
        redirectUris: ["https://o.test/cb"],
      });
      for (const [c, g, at] of [["c1", "g1", T], ["c2", "g2", T + MIN]] as const) {
        await store.oauth.issueCode(code(c), 0);
        await store.oauth.redeemCode({ codeHash: c, at, grant: grant(g, at), tokens: pair(g, g) });
      }
      await store.oauth.issueCode({ ...code("c3"), clientId: "sdc_2" }, 0);
      await store.oauth.redeemCode({
        codeHash: "c3",
        at: T + 2 * MIN,
        grant: { ...grant("g3", T + 2 * MIN), clientId: "sdc_2" },
        tokens: pair("g3", "g3"),
      });
      await store.oauth.touchGrant("g1", T + 10 * MIN);
      await store.oauth.touchGrant("g1", T + 5 * MIN);
      deepStrictEqual(
        (await store.oauth.connectedClients("a1")).map((
          r,
        ) => [r.grantId, r.clientId, r.clientName, r.lastUsedAt]),
        [["g3", "sdc_2", "Other", null], ["g2", "sdc_1", "Claude", null], [
          "g1",
          "sdc_1",
          "Claude",
          T + 10 * MIN,
        ]],
      );
      deepStrictEqual(
        (await store.oauth.connectedClients("a1"))[2]!.redirectUris,
        client.redirectUris,
      );
      equal(await store.oauth.disconnectClient("a1", "sdc_1", T + 20 * MIN), 2);
      equal(await store.oauth.disconnectClient("a1", "sdc_1", T + 21 * MIN), 0);
      deepStrictEqual((await store.oauth.connectedClients("a1")).map((r) => r.grantId), ["g3"]);
      equal((await store.oauth.token("access-g2"))!.token.revokedAt, T + 20 * MIN);
      equal((await store.oauth.token("access-g3"))!.token.revokedAt, null);
    },
  },
];
