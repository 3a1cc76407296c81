/**
 * `GET /api/events`: a Server-Sent Events stream of committed status changes and incident
 * updates, resumable with `Last-Event-ID`.
 * @module
 */
import { z } from "@hono/zod-openapi";
import { streamSSE } from "hono/streaming";
import { changesSince, latestChangeId } from "../../app/mod.ts";
import type { Change } from "../../domain/mod.ts";
import type { Register } from "../mod.ts";
import { defineRoute } from "./define.ts";
import { changeJson } from "./schemas.ts";

/** Seconds between heartbeat comments (keeps proxies from closing an idle stream). */
export const HEARTBEAT_SECONDS = 15;
/** A stream is closed after this long; clients reconnect with `Last-Event-ID` and lose nothing. */
export const STREAM_MAX_SECONDS = 600;

const EventsQuery = z.object({
  lastEventId: z.coerce.number().int().min(0).optional().openapi({
    param: { name: "lastEventId", in: "query" },
    description: "Resume after this event id (same as the `Last-Event-ID` header, which wins)",
    example: 1200,
  }),
});

const eventsRoute = defineRoute({
  method: "get",
  path: "/api/events",
  operationId: "streamEvents",
  tags: ["Live"],
  summary: "Live stream of status changes and incident updates (SSE)",
  description:
    "A `text/event-stream` (Server-Sent Events) of every change the poller stores, as it " +
    "commits it. Two event types: `status` (data: `{id, at, kind, slug, component, from, to}`; " +
    "`component` is null for the service as a whole) and `incident` (data: `{id, at, kind, " +
    "slug, incidentId, title, status, impact, latestUpdate}`). Each event has an `id`, " +
    "increasing; reconnect with the `Last-Event-ID` header (browsers' EventSource does this " +
    "itself) to receive what you missed, oldest first. Without it the stream starts with new " +
    `changes only. A comment line (\`: heartbeat\`) is sent every ${HEARTBEAT_SECONDS} s, and ` +
    `the server ends a stream after ${STREAM_MAX_SECONDS} s (reconnect to go on). Example: ` +
    "`curl -N -H 'Last-Event-ID: 1200' {host_url}/api/events`. No credential needed.",
  request: {
    query: EventsQuery,
    headers: z.object({
      "last-event-id": z.string().regex(/^\d+$/, "expected an event id (digits)").optional()
        .openapi({
          param: { name: "last-event-id", in: "header" },
          description: "Resume after this event id (HTTP header names are case-insensitive)",
          example: "1200",
        }),
    }),
  },
  responses: {
    200: {
      content: {
        "text/event-stream": {
          schema: z.string().openapi({
            example:
              'id: 1201\nevent: status\ndata: {"id":1201,"at":"2026-11-20T14:03:00.000Z","kind":"status","slug":"github","component":null,"from":"OPERATIONAL","to":"MAJOR_OUTAGE"}\n\n',
          }),
        },
      },
      description: "The event stream",
    },
  },
}, { credential: "open", scopes: [] });

/** Mounts the live stream. */
export const registerEvents: Register = (api, deps) => {
  api.openapi(eventsRoute, (c) => {
    const app = deps.app;
    const header = c.req.valid("header")["last-event-id"];
    const query = c.req.valid("query").lastEventId;
    const resumeFrom = header !== undefined ? Number(header) : query;
    const response = streamSSE(c, async (stream) => {
      const pending: Change[] = [];
      let wake: (() => void) | null = null;
      const unsubscribe = app.changes.subscribe((changes) => {
        pending.push(...changes);
        wake?.();
      });
      let closed = false;
      const close = () => {
        closed = true;
        wake?.();
      };
      stream.onAbort(close);
      deps.shutdown?.addEventListener("abort", close, { once: true });
      if (deps.shutdown?.aborted) close();
      let lastSent = resumeFrom ?? latestChangeId(app);
      const send = async (change: Change) => {
        if (change.id <= lastSent) return;
        lastSent = change.id;
        await stream.writeSSE({
          id: String(change.id),
          event: change.kind,
          data: JSON.stringify(changeJson(change)),
        });
      };
      try {
        await stream.write(`retry: 3000\n: connected\n\n`);
        if (resumeFrom !== undefined) {
          for (
            let batch = changesSince(app, lastSent);
            batch.length;
            batch = changesSince(app, lastSent)
          ) {
            for (const change of batch) await send(change);
          }
        }
        const deadline = Date.now() + STREAM_MAX_SECONDS * 1000;
        while (!closed && Date.now() < deadline) {
          while (pending.length && !closed) await send(pending.shift()!);
          if (closed) break;
          const slept = await new Promise<boolean>((resolve) => {
            const timer = setTimeout(() => resolve(false), HEARTBEAT_SECONDS * 1000);
            wake = () => {
              clearTimeout(timer);
              resolve(true);
            };
          });
          wake = null;
          if (!slept && !closed) await stream.write(": heartbeat\n\n");
        }
      } finally {
        unsubscribe();
        deps.shutdown?.removeEventListener("abort", close);
      }
    });
    response.headers.set("Cache-Control", "no-store");
    response.headers.set("X-Accel-Buffering", "no");
    // The stream is documented as text/event-stream above; Hono types it as a plain Response.
    return response as never;
  });
};
