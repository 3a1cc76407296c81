/**
 * The REST routes of an account document (a monitor, group, board, subscription, alert route,
 * alert rule or escalation policy), declared once: list, create, read, change and delete, with
 * the same conventions for every noun. Creates take `Idempotency-Key` and answer 201 with
 * `Location` and `ETag`; reads carry the version as `ETag`; changes and deletes take `If-Match`
 * and refuse a stale version with 412; another account's document is a 404 (the verb's rule).
 * Each noun gives its paths, schemas, words and verbs; everything else is here.
 * @module
 */
import { type OpenAPIHono, type RouteConfig, z } from "@hono/zod-openapi";
import type { Context } from "hono";
import {
  type Access,
  type AppContext,
  type Caller,
  idempotentCreate,
  type IdempotentResult,
} from "../../app/mod.ts";
import { type EpochMs, InvalidRequest, type Page, type PageRequest } from "../../domain/mod.ts";
import type { Env } from "../env.ts";
import { ErrorSchema } from "../errors.ts";
import { defineRoute } from "./define.ts";
import { pageJson, PageQuery } from "./schemas.ts";

/** Account data is never stored by caches. */
export const NO_STORE = { "Cache-Control": "no-store" };

/** The `If-Match` request header of versioned writes. */
export const IfMatch = z.object({
  "if-match": z.string().max(200).optional().openapi({
    description: "The ETag you read; a stale one is refused with 412",
  }),
});

/** The `ETag` response header of versioned resources. */
export const etagHeader = z.object({
  ETag: z.string().openapi({ description: "Configuration version" }),
});

/** The 412 response of versioned writes. */
export const stale = {
  description: "`precondition_failed`: the monitor changed since the ETag in `If-Match`",
  content: { "application/json": { schema: ErrorSchema } },
};

/** The optional `Idempotency-Key` request header of creates. */
export const IdempotencyHeader = z.object({
  "idempotency-key": z.string().max(300).optional().openapi({
    description: "Any unique token (a UUID): a retried POST with the same key and body gets " +
      "the first answer again (`Idempotent-Replayed: true`) and creates nothing more; the same " +
      "key with another body is a 422. Kept 24 hours.",
  }),
});

/** The responses a create with `Idempotency-Key` can add. */
export const idempotencyResponses = {
  409: {
    description: "`conflict`: a request with this Idempotency-Key is still being processed",
    content: { "application/json": { schema: ErrorSchema } },
  },
  422: {
    description: "`idempotency_key_reused`: this Idempotency-Key came with a different request",
    content: { "application/json": { schema: ErrorSchema } },
  },
};

/** A create's answer (first or replayed) as the 201 response. */
export function createdResponse(answer: IdempotentResult): Response {
  const version = (JSON.parse(answer.body) as { version: number }).version;
  return new Response(answer.body, {
    status: answer.status,
    headers: {
      "Content-Type": "application/json",
      ...NO_STORE,
      ...(answer.location ? { Location: answer.location } : {}),
      ETag: `"v${version}"`,
      ...(answer.replayed ? { "Idempotent-Replayed": "true" } : {}),
    },
  });
}

/** `"v3"` → 3; `*` or absent → null (any); anything else is a 400. */
export function versionOf(ifMatch: string | undefined): number | null {
  if (ifMatch === undefined || ifMatch.trim() === "*") return null;
  const m = /^\s*(?:W\/)?"v(\d{1,9})"\s*$/.exec(ifMatch);
  if (!m) {
    throw new InvalidRequest([{
      parameter: "If-Match",
      message: 'expected an ETag this API gave, like "v3"',
    }]);
  }
  return Number(m[1]);
}

/** The `{id}` path parameter of an account document (`example`: an id of the noun). */
export function idParam(example?: string) {
  return z.object({
    id: z.string().min(1).max(100).openapi({
      param: { name: "id", in: "path" },
      ...(example === undefined ? {} : { example }),
    }),
  });
}

/** The words of one operation in the OpenAPI document. */
export interface OperationWords {
  readonly operationId: string;
  readonly summary: string;
  readonly description: string;
}

/**
 * The verbs (in app/) behind the routes of one noun, as app/ declares them: the app context and
 * the caller first. `create` answers what was made (`M`: the document, or more).
 */
export interface DocVerbs<V, B, P, M> {
  list(ctx: AppContext, who: Caller, page: PageRequest, filter: never): Promise<Page<V>>;
  create(ctx: AppContext, who: Caller, body: B): Promise<M>;
  get(ctx: AppContext, who: Caller, id: string): Promise<V>;
  update?(ctx: AppContext, who: Caller, id: string, patch: P, version: number | null): Promise<V>;
  remove(ctx: AppContext, who: Caller, id: string, version: number | null): Promise<void>;
}

/** One noun's routes: its path, schemas, access, words and verbs. */
export interface AccountDocApi<V extends { readonly version: number }, B, P, M = V> {
  /** The collection, e.g. `/api/user/monitors`; one document is `{path}/{id}`. */
  readonly path: string;
  readonly tags: string[];
  readonly idParam: ReturnType<typeof idParam>;
  /** One document as JSON, and a page of them. */
  readonly schema: z.ZodType;
  readonly pageSchema: z.ZodType;
  readonly createBody: z.ZodType<B>;
  /** Absent: the noun cannot be changed (no PATCH). */
  readonly patchBody?: z.ZodType<P>;
  readonly read: Access;
  readonly write: Access;
  readonly list: OperationWords & {
    readonly answer: string;
    /** Filters besides `limit` and `page`, handed to `verbs.list`. */
    readonly query?: Record<string, z.ZodType>;
  };
  readonly create: OperationWords & {
    readonly responses?: RouteConfig["responses"];
    /** What the 201 holds when it says more than a read (a secret shown once). */
    readonly schema?: z.ZodType;
  };
  /** `etag: false`: the read does not carry the version. */
  readonly get: OperationWords & { readonly answer: string; readonly etag?: boolean };
  readonly update?: OperationWords & { readonly answer: string };
  readonly remove: OperationWords;
  readonly verbs: DocVerbs<V, B, P, M>;
  /** One document as JSON (`now`: the app clock's). */
  json(v: V, now: EpochMs): unknown;
  /** What a create answers when it says more than a read (default: `M` is the document). */
  created?(made: M, now: EpochMs): { readonly id: string; readonly json: unknown };
}

const json = (schema: z.ZodType) => ({ "application/json": { schema } });

/** Declares one noun's routes (for the OpenAPI document and the router). */
function declare<V extends { readonly version: number }, B, P, M>(
  d: AccountDocApi<V, B, P, M>,
) {
  const one = `${d.path}/{id}`;
  return {
    list: defineRoute({
      method: "get",
      path: d.path,
      operationId: d.list.operationId,
      summary: d.list.summary,
      description: d.list.description,
      tags: d.tags,
      request: { query: z.object({ ...PageQuery, ...d.list.query }) },
      responses: { 200: { description: d.list.answer, content: json(d.pageSchema) } },
    }, d.read),
    create: defineRoute({
      method: "post",
      path: d.path,
      operationId: d.create.operationId,
      summary: d.create.summary,
      description: d.create.description,
      tags: d.tags,
      request: {
        headers: IdempotencyHeader,
        body: { content: json(d.createBody), required: true },
      },
      responses: {
        201: {
          description: "Created (or, for a retry with the same Idempotency-Key, the first answer)",
          headers: z.object({ Location: z.string(), ETag: z.string() }),
          content: json(d.create.schema ?? d.schema),
        },
        ...idempotencyResponses,
        ...d.create.responses,
      },
    }, d.write),
    get: defineRoute({
      method: "get",
      path: one,
      operationId: d.get.operationId,
      summary: d.get.summary,
      description: d.get.description,
      tags: d.tags,
      request: { params: d.idParam },
      responses: {
        200: {
          description: d.get.answer,
          ...(d.get.etag === false ? {} : { headers: etagHeader }),
          content: json(d.schema),
        },
      },
    }, d.read),
    update: d.update && d.patchBody
      ? defineRoute({
        method: "patch",
        path: one,
        operationId: d.update.operationId,
        summary: d.update.summary,
        description: d.update.description,
        tags: d.tags,
        request: {
          params: d.idParam,
          headers: IfMatch,
          body: { content: json(d.patchBody), required: true },
        },
        responses: {
          200: { description: d.update.answer, headers: etagHeader, content: json(d.schema) },
          412: stale,
        },
      }, d.write)
      : null,
    remove: defineRoute({
      method: "delete",
      path: one,
      operationId: d.remove.operationId,
      summary: d.remove.summary,
      description: d.remove.description,
      tags: d.tags,
      request: { params: d.idParam, headers: IfMatch },
      responses: { 204: { description: "Deleted" }, 412: stale },
    }, d.write),
  };
}

/** What a handler reads: the request's validated parts (typed by the noun's schemas). */
function valid(c: Context<Env>, part: "query" | "json" | "header" | "param") {
  return (c.req as unknown as { valid(p: string): Record<string, unknown> }).valid(part);
}

const appOf = (c: Context<Env>) => c.get("app");
const whoOf = (c: Context<Env>) => c.get("principal");
const nowOf = (c: Context<Env>) => c.get("app").clock.now();
const etagOf = (v: { readonly version: number }) => `"v${v.version}"`;

/**
 * Adds one noun's routes to `api`, in the order list, create, read, change, delete (the order
 * their paths take in the OpenAPI document).
 */
export function registerAccountDocApi<V extends { readonly version: number }, B, P, M = V>(
  api: OpenAPIHono<Env>,
  d: AccountDocApi<V, B, P, M>,
): void {
  const defs = declare(d);
  const ifMatch = (c: Context<Env>) => versionOf(valid(c, "header")["if-match"] as string);
  const id = (c: Context<Env>) => valid(c, "param").id as string;
  api.openapi(
    defs.list,
    (async (c: Context<Env>) => {
      const { limit, page, ...query } = valid(c, "query") as PageRequest & Record<string, unknown>;
      const found = await d.verbs.list(appOf(c), whoOf(c), { limit, page }, query as never);
      return c.json(pageJson(found, (v) => d.json(v, nowOf(c))), 200, NO_STORE);
    }) as never,
  );
  api.openapi(
    defs.create,
    (async (c: Context<Env>) => {
      const body = valid(c, "json") as B;
      const answer = await idempotentCreate(
        appOf(c),
        whoOf(c),
        valid(c, "header")["idempotency-key"] as string | undefined,
        d.create.operationId,
        body,
        async () => {
          const made = await d.verbs.create(appOf(c), whoOf(c), body);
          const shown = d.created ? d.created(made, nowOf(c)) : {
            id: (made as V & { id: string }).id,
            json: d.json(made as unknown as V, nowOf(c)),
          };
          return {
            status: 201,
            body: JSON.stringify(shown.json),
            location: `${d.path}/${shown.id}`,
          };
        },
      );
      return createdResponse(answer);
    }) as never,
  );
  api.openapi(
    defs.get,
    (async (c: Context<Env>) => {
      const v = await d.verbs.get(appOf(c), whoOf(c), id(c));
      const headers = d.get.etag === false ? NO_STORE : { ...NO_STORE, ETag: etagOf(v) };
      return c.json(d.json(v, nowOf(c)) as object, 200, headers);
    }) as never,
  );
  const update = d.verbs.update;
  if (defs.update && update) {
    api.openapi(
      defs.update,
      (async (c: Context<Env>) => {
        const v = await update(appOf(c), whoOf(c), id(c), valid(c, "json") as P, ifMatch(c));
        return c.json(d.json(v, nowOf(c)) as object, 200, { ...NO_STORE, ETag: etagOf(v) });
      }) as never,
    );
  }
  api.openapi(
    defs.remove,
    (async (c: Context<Env>) => {
      await d.verbs.remove(appOf(c), whoOf(c), id(c), ifMatch(c));
      return c.body(null, 204);
    }) as never,
  );
}
