/**
 * Reading a large vendor document off the event loop: JSON.parse, the platform's
 * schema and the reading limits of a body of several MB take a few hundred ms, which requests
 * would otherwise wait out. Bodies from {@link OFF_THREAD_BYTES} up are parsed by a Worker that
 * imports the adapters itself (adapters are objects with functions, so only the platform's name
 * crosses over) and answers with the bounded snapshot, the unmapped values and the notes.
 *
 * The worker runs this module's own URL: in a `deno bundle` build that is the bundle, which
 * holds every adapter; `main.ts` starts nothing in a thread named {@link PARSE_WORKER_NAME}.
 * It is started on the first large body and ends after a minute without one.
 * @module
 */
import { boundSnapshot, type EpochMs, type Platform, type Snapshot } from "../domain/mod.ts";
import {
  type Adapter,
  type ParseContext,
  PayloadError,
  UndecodableError,
} from "./adapters/adapter.ts";
import { ADAPTERS } from "./adapters/mod.ts";

/** Bodies at least this large (bytes) are parsed off the event loop. */
export const OFF_THREAD_BYTES = 256 * 1024;
/** The name of the parse worker's thread. */
export const PARSE_WORKER_NAME = "statusd-parse";
const IDLE_MS = 60_000;

/** What parsing a body gave: the bounded snapshot, or the error, plus what it reported. */
export interface ParsedReading {
  readonly snapshot: Snapshot | null;
  /** The adapter's error (a PayloadError or UndecodableError rebuilt), when it threw. */
  readonly error: unknown;
  /** Unmapped platform values, `[field, value]`. */
  readonly unknown: readonly (readonly [string, string])[];
  /** Items dropped or cut, `[path, reason]`. */
  readonly dropped: readonly (readonly [string, string])[];
}

/** Parses bodies, large ones on a worker thread. */
export interface ReadingParser {
  parse(
    platform: Platform,
    adapter: Adapter,
    body: string,
    ctx: ReadContext,
  ): Promise<ParsedReading>;
  /** Ends the worker, if one runs; answers pending parses with an error. */
  close(): void;
  /** Bodies parsed on the worker so far. */
  readonly offThread: number;
}

/** True inside the parse worker's thread. */
export function isParseWorker(): boolean {
  return "WorkerGlobalScope" in globalThis &&
    (globalThis as { name?: string }).name === PARSE_WORKER_NAME;
}

/** What a parse knows besides the body (the poller's part of `ParseContext`). */
export type ReadContext = Pick<ParseContext, "pageUrl" | "fetchedAt" | "documentUrl">;

/** Parses `body` here and now: the adapter, then the reading limits (domain/bounds.ts). */
export function parseHere(adapter: Adapter, body: string, ctx: ReadContext): ParsedReading {
  const unknown: [string, string][] = [];
  const dropped: [string, string][] = [];
  const report = (path: string, reason: string) => void dropped.push([path, reason]);
  try {
    const parsed = adapter.parse(body, {
      pageUrl: ctx.pageUrl,
      fetchedAt: ctx.fetchedAt,
      ...(ctx.documentUrl ? { documentUrl: ctx.documentUrl } : {}),
      unknownValue: (field, value) => void unknown.push([field, value]),
      dropped: report,
    });
    return {
      snapshot: boundSnapshot(parsed, ctx.fetchedAt, report),
      error: null,
      unknown,
      dropped,
    };
  } catch (error) {
    return { snapshot: null, error, unknown, dropped };
  }
}

interface Job {
  readonly id: number;
  readonly platform: Platform;
  readonly body: string;
  readonly pageUrl: string;
  readonly documentUrl: string | null;
  readonly fetchedAt: EpochMs;
}

/** An error as it crosses threads. */
interface WireError {
  readonly kind: "undecodable" | "payload" | "other";
  readonly platform: string;
  readonly path: string;
  readonly message: string;
}

interface Answer {
  readonly id: number;
  readonly snapshot: Snapshot | null;
  readonly error: WireError | null;
  readonly unknown: [string, string][];
  readonly dropped: [string, string][];
}

function toWire(err: unknown): WireError {
  if (err instanceof UndecodableError) {
    return { kind: "undecodable", platform: err.platform, path: "$", message: err.message };
  }
  if (err instanceof PayloadError) {
    return { kind: "payload", platform: err.platform, path: err.path, message: err.message };
  }
  return { kind: "other", platform: "", path: "", message: String(err) };
}

function fromWire(e: WireError): Error {
  if (e.kind === "other") return new Error(e.message);
  const err = e.kind === "undecodable"
    ? new UndecodableError(e.platform, "")
    : new PayloadError(e.platform, e.path, "");
  err.message = e.message;
  return err;
}

/** A parser that sends bodies of {@link OFF_THREAD_BYTES} or more to a worker. */
export function createReadingParser(): ReadingParser {
  let worker: Worker | null = null;
  let idle: ReturnType<typeof setTimeout> | undefined;
  let next = 0;
  let offThread = 0;
  const waiting = new Map<number, (a: ParsedReading) => void>();
  const stop = (why: string) => {
    worker?.terminate();
    worker = null;
    clearTimeout(idle);
    for (const answer of waiting.values()) {
      answer({ snapshot: null, error: new Error(why), unknown: [], dropped: [] });
    }
    waiting.clear();
  };
  const start = () => {
    const w = new Worker(import.meta.url, { type: "module", name: PARSE_WORKER_NAME });
    w.onmessage = (e: MessageEvent<Answer>) => {
      const a = e.data;
      waiting.get(a.id)?.({
        snapshot: a.snapshot,
        error: a.error ? fromWire(a.error) : null,
        unknown: a.unknown,
        dropped: a.dropped,
      });
      waiting.delete(a.id);
    };
    w.onerror = (e) => {
      e.preventDefault();
      stop(`the parse worker failed: ${e.message}`);
    };
    return w;
  };
  return {
    parse(platform, adapter, body, ctx) {
      // Only the registry's own parse can run on the worker (tests may pass other adapters).
      const large = body.length >= OFF_THREAD_BYTES &&
        ADAPTERS[platform]?.parse === adapter.parse;
      if (!large) return Promise.resolve(parseHere(adapter, body, ctx));
      worker ??= start();
      offThread++;
      clearTimeout(idle);
      const timer = setTimeout(() => stop("the parse worker was idle"), IDLE_MS);
      Deno.unrefTimer(timer);
      idle = timer;
      const id = ++next;
      const job: Job = {
        id,
        platform,
        body,
        pageUrl: ctx.pageUrl.href,
        documentUrl: ctx.documentUrl?.href ?? null,
        fetchedAt: ctx.fetchedAt,
      };
      return new Promise((resolve) => {
        waiting.set(id, resolve);
        worker!.postMessage(job);
      });
    },
    close: () => stop("the poller stopped"),
    get offThread() {
      return offThread;
    },
  };
}

if (isParseWorker()) {
  const scope = globalThis as unknown as {
    onmessage: ((e: MessageEvent<Job>) => void) | null;
    postMessage(a: Answer): void;
  };
  scope.onmessage = (e) => {
    const job = e.data;
    const adapter = ADAPTERS[job.platform];
    const out = adapter
      ? parseHere(adapter, job.body, {
        pageUrl: new URL(job.pageUrl),
        fetchedAt: job.fetchedAt,
        ...(job.documentUrl ? { documentUrl: new URL(job.documentUrl) } : {}),
      })
      : {
        snapshot: null,
        error: new Error(`no adapter for ${job.platform}`),
        unknown: [],
        dropped: [],
      };
    scope.postMessage({
      id: job.id,
      snapshot: out.snapshot,
      error: out.error === null ? null : toWire(out.error),
      unknown: [...out.unknown] as [string, string][],
      dropped: [...out.dropped] as [string, string][],
    });
  };
}
