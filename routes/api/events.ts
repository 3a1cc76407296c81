/**
 * `GET /api/events`: a Server-Sent Events stream of committed status changes, incident updates
 * and statusd's own early warnings, resumable with `Last-Event-ID`.
 *
 * Nothing is ever dropped silently. Replays read the durable `changes` table in chunks of
 * {@link REPLAY_CHUNK}. Live changes wait in a buffer of at most {@link LIVE_BUFFER_MAX} per
 * stream; a client that falls further behind (a slow reader, or one poll committing more than
 * that) gets a `resume` event carrying the id of the last change it was sent, and the stream
 * ends: reconnecting with that `Last-Event-ID` replays the rest from the log.
 * @module
 */
import { z } from "@hono/zod-openapi";
import { streamSSE } from "hono/streaming";
import type { SSEStreamingApi } from "hono/streaming";
import {
  type AppContext,
  changesSince,
  latestChangeId,
  oldestChangeId,
  OPEN,
} from "../../app/mod.ts";
import type { Change } from "../../domain/mod.ts";
import type { Register } from "../register.ts";
import { defineRoute } from "./define.ts";
import { changeJson, queryInteger } from "./schemas.ts";

/** Seconds between heartbeat comments (keeps proxies from closing an idle stream). */
export const HEARTBEAT_SECONDS = 15;
/** A stream is closed after this long; clients reconnect with `Last-Event-ID` and lose nothing. */
export const STREAM_MAX_SECONDS = 600;
/** Changes read from the log per query while replaying. */
export const REPLAY_CHUNK = 500;
/** Live changes one stream holds at most before it tells the client to `resume`. */
export const LIVE_BUFFER_MAX = 5000;

const EventsQuery = z.object({
  lastEventId: queryInteger(0, Number.MAX_SAFE_INTEGER).optional().openapi({
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
    "commits it. Two event types carry changes: `status` (data: `{id, at, kind, slug, " +
    "component, from, to}`; `component` is null for the service as a whole) and `incident` " +
    "(data: `{id, at, kind, slug, incidentId, title, status, impact, latestUpdate}`); a third, " +
    "`early_warning` (data: `{id, at, kind, slug, phase, since, summary}`, `phase` one of " +
    "`suspected`, `acknowledged`, `cleared`), is statusd's own observation of a vendor (its " +
    "probes of the vendor's endpoints, members' reports), never the vendor's status. Each has " +
    "an `id`, increasing; reconnect with the `Last-Event-ID` header (browsers' EventSource does " +
    "this itself) to receive what you missed, oldest first, read from the stored log. Without " +
    "it the stream starts with new changes only.\n\n" +
    'Two control events: `resume` (data: `{lastEventId, reason: "behind"}`, with `id` = ' +
    "`lastEventId`) is sent when the client fell more than " +
    `${LIVE_BUFFER_MAX} changes behind the live feed; the server then ends the stream, and ` +
    "reconnecting with `Last-Event-ID: <lastEventId>` delivers everything after it (nothing is " +
    'dropped). `reset` (data: `{lastEventId, reason: "unknown_id", requested}`, with `id` = ' +
    "`lastEventId`) comes first when the requested id is beyond the newest stored change (an " +
    "id from another database): the stream goes on from the newest change, and the client " +
    'should reload the state it keeps. The same `reset`, with `reason: "expired"`, comes ' +
    "first when changes after the requested id are no longer stored (the log keeps 7 days): " +
    "the stream replays from the oldest change kept.\n\n" +
    `A comment line (\`: heartbeat\`) is sent every ${HEARTBEAT_SECONDS} s, and ` +
    `the server ends a stream after ${STREAM_MAX_SECONDS} s (reconnect to go on). Example: ` +
    "`curl -N -H 'Last-Event-ID: 1200' {host_url}/api/events`. No credential needed.",
  request: {
    query: EventsQuery,
    headers: z.object({
      "last-event-id": z.string().regex(/^\d{1,16}$/, "expected an event id (digits)").optional()
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
}, OPEN);

/** Committed changes waiting for one stream, at most `max`; past it, only a flag. */
interface LiveBuffer {
  /** True once a publish did not fit: the stream must tell its client to resume. */
  readonly behind: boolean;
  /** Takes every waiting change, oldest first. */
  drain(): Change[];
  /** Resolves true when changes arrive (or `wake` is called), false after `ms`. */
  wait(ms: number): Promise<boolean>;
  /** Ends a pending `wait` at once. */
  wake(): void;
  close(): void;
}

function liveBuffer(app: AppContext, max: number): LiveBuffer {
  let pending: Change[] = [];
  let behind = false;
  let wakeUp: (() => void) | null = null;
  const unsubscribe = app.store.changes.subscribe((changes) => {
    if (behind) return;
    if (pending.length + changes.length > max) {
      behind = true;
      pending = [];
    } else {
      for (const change of changes) pending.push(change);
    }
    wakeUp?.();
  });
  return {
    get behind() {
      return behind;
    },
    drain() {
      const out = pending;
      pending = [];
      return out;
    },
    wait(ms) {
      return new Promise<boolean>((resolve) => {
        const timer = setTimeout(() => resolve(false), ms);
        wakeUp = () => {
          wakeUp = null;
          clearTimeout(timer);
          resolve(true);
        };
      });
    },
    wake: () => wakeUp?.(),
    close: unsubscribe,
  };
}

/** Writes one change event. */
function writeChange(stream: SSEStreamingApi, change: Change): Promise<void> {
  return stream.writeSSE({
    id: String(change.id),
    event: change.kind,
    data: JSON.stringify(changeJson(change)),
  });
}

/** Writes a control event whose `id` moves the client's `Last-Event-ID` to `lastEventId`. */
function writeControl(
  stream: SSEStreamingApi,
  event: "resume" | "reset",
  data: { lastEventId: number; reason: string; requested?: number },
): Promise<void> {
  return stream.writeSSE({ id: String(data.lastEventId), event, data: JSON.stringify(data) });
}

/** Mounts the live stream. */
export const registerEvents: Register = (api, deps) => {
  api.openapi(eventsRoute, (c) => {
    const app = deps.app;
    const header = c.req.valid("header")["last-event-id"];
    const query = c.req.valid("query").lastEventId;
    const requested = header !== undefined ? Number(header) : query;
    const response = streamSSE(c, async (stream) => {
      // Subscribe before reading the newest id: a change committed in between is buffered,
      // and the id check below skips anything already sent.
      const live = liveBuffer(app, LIVE_BUFFER_MAX);
      let closed = false;
      const close = () => {
        closed = true;
        live.wake();
      };
      stream.onAbort(close);
      deps.shutdown?.addEventListener("abort", close, { once: true });
      if (deps.shutdown?.aborted) close();
      const newest = await latestChangeId(app);
      let lastSent = requested === undefined ? newest : Math.min(requested, newest);
      const send = async (change: Change) => {
        if (change.id <= lastSent || closed) return;
        lastSent = change.id;
        await writeChange(stream, change);
      };
      try {
        await stream.write(`retry: 3000\n: connected\n\n`);
        if (requested !== undefined && requested > newest) {
          await writeControl(stream, "reset", {
            lastEventId: newest,
            reason: "unknown_id",
            requested,
          });
        } else if (requested !== undefined) {
          // Changes after the requested id were pruned (retention): say so, then replay what
          // is kept.
          const oldest = await oldestChangeId(app);
          if (oldest > 0 && requested + 1 < oldest) {
            lastSent = oldest - 1;
            await writeControl(stream, "reset", {
              lastEventId: lastSent,
              reason: "expired",
              requested,
            });
          }
        }
        if (requested !== undefined) {
          for (
            let batch = await changesSince(app, lastSent, REPLAY_CHUNK);
            batch.length && !closed;
            batch = await changesSince(app, lastSent, REPLAY_CHUNK)
          ) {
            for (const change of batch) await send(change);
          }
        }
        const deadline = Date.now() + STREAM_MAX_SECONDS * 1000;
        while (!closed && Date.now() < deadline) {
          if (live.behind) {
            await writeControl(stream, "resume", { lastEventId: lastSent, reason: "behind" });
            break;
          }
          const batch = live.drain();
          for (const change of batch) await send(change);
          if (batch.length || closed || live.behind) continue;
          const woken = await live.wait(HEARTBEAT_SECONDS * 1000);
          if (!woken && !closed) await stream.write(": heartbeat\n\n");
        }
      } finally {
        live.close();
        deps.shutdown?.removeEventListener("abort", close);
      }
    });
    response.headers.set("Cache-Control", "no-store");
    response.headers.set("X-Accel-Buffering", "no");
    // The stream is documented as text/event-stream above; Hono types it as a plain Response.
    return response as never;
  });
};
