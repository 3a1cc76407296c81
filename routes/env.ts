/**
 * The Hono environment every router shares: the caller and the verbs' context.
 * @module
 */
import type { AppContext } from "../app/mod.ts";
import type { Principal } from "../domain/mod.ts";
import type { ResponseCache } from "./api/cache.ts";

/** Variables set by middleware (`c.get("principal")`, `c.get("app")`, `c.get("clientAddress")`). */
export interface Env {
  Variables: {
    principal: Principal;
    app: AppContext;
    /** The caller's address (the peer, or the client named by a trusted proxy). */
    clientAddress: string;
    /** The server's cache of public responses (ServerDeps.responseCache). */
    responseCache: ResponseCache;
  };
}
