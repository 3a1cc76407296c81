/**
 * Reading a team's dependency files off the event loop: a request may carry 20 files of 2 MB
 * each, and the readers (lib/dependency_files.ts), though linear, would still hold every
 * other request for as long as that takes. Files are read on one worker thread, one request at
 * a time, each under a deadline: a request whose files take longer ends the worker (a new one
 * starts for the next) and is answered with a clear error instead of being waited for.
 *
 * The deadline counts reading only. Starting the worker (loading its modules, which on a busy
 * machine can itself take seconds) has its own, longer bound: a request is not blamed for it.
 *
 * The worker runs this module's own URL; in a `deno bundle` build that is the bundle, and
 * `main.ts` starts nothing in a thread named {@link FILE_READER_NAME}.
 * @module
 */
import { Busy, InvalidRequest } from "../domain/mod.ts";
import { type FileDependencies, type FileProblem, readDependencyFile } from "../lib/mod.ts";

/** The name of the reader's worker thread. */
export const FILE_READER_NAME = "statusd-dependency-files";
/** How long one request's files may take to read (ms). */
export const READ_DEADLINE_MS = 5_000;
/** Requests that may wait for the reader at once; more are answered 503 (busy). */
export const MAX_WAITING = 32;
/** How long a new worker may take to start before waiting requests are answered busy (ms). */
export const START_DEADLINE_MS = 60_000;
const IDLE_MS = 60_000;
/** The worker's first message: its modules are loaded and it reads from now on. */
const READY = "ready";

/** One file as sent. */
export interface DependencyFile {
  readonly name: string;
  readonly content: string;
}

/** Reads dependency files on a worker thread, one request at a time, each under a deadline. */
export interface DependencyReader {
  /** What each file names (or its problem), in order. Throws InvalidRequest past the deadline. */
  read(files: readonly DependencyFile[]): Promise<(FileDependencies | FileProblem)[]>;
  /** Ends the worker; requests still waiting are answered busy. */
  close(): void;
}

/** True inside the reader's worker thread. */
export function isDependencyReaderWorker(): boolean {
  return "WorkerGlobalScope" in globalThis &&
    (globalThis as { name?: string }).name === FILE_READER_NAME;
}

interface Job {
  readonly files: readonly DependencyFile[];
  readonly resolve: (r: (FileDependencies | FileProblem)[]) => void;
  readonly reject: (e: Error) => void;
}

/** A reader over a worker started on first use and ended after a minute without work. */
export function createDependencyReader(
  options: {
    deadlineMs?: number;
    startDeadlineMs?: number;
    maxWaiting?: number;
    /** The worker's module; tests pass one that starts slowly. */
    workerUrl?: string | URL;
  } = {},
): DependencyReader {
  const workerUrl = options.workerUrl ?? import.meta.url;
  const startDeadlineMs = options.startDeadlineMs ?? START_DEADLINE_MS;
  const deadlineMs = options.deadlineMs ?? READ_DEADLINE_MS;
  const maxWaiting = options.maxWaiting ?? MAX_WAITING;
  let worker: Worker | null = null;
  let ready = false;
  let idle: ReturnType<typeof setTimeout> | undefined;
  let running: { job: Job; timer?: ReturnType<typeof setTimeout> } | null = null;
  const queue: Job[] = [];

  const endWorker = () => {
    worker?.terminate();
    worker = null;
    ready = false;
  };
  const finish = () => {
    if (running) clearTimeout(running.timer);
    running = null;
    next();
  };
  /** Hands the running job to a ready worker and starts its deadline. */
  const startReading = () => {
    if (running === null || worker === null) return;
    clearTimeout(running.timer);
    worker.postMessage(running.job.files);
    running.timer = setTimeout(() => {
      const job = running?.job;
      endWorker();
      job?.reject(
        new InvalidRequest(
          [{
            parameter: "files",
            message: `reading these files took longer than ${deadlineMs / 1000} s; ` +
              "send fewer or smaller files",
          }],
        ),
      );
      finish();
    }, deadlineMs);
  };
  const startWorker = () => {
    const w = new Worker(workerUrl, { type: "module", name: FILE_READER_NAME });
    w.onmessage = (e: MessageEvent<(FileDependencies | FileProblem)[] | typeof READY>) => {
      if (e.data === READY) {
        ready = true;
        startReading();
        return;
      }
      running?.job.resolve(e.data);
      finish();
    };
    w.onerror = (e) => {
      e.preventDefault();
      endWorker();
      running?.job.reject(new Error(`the dependency file reader failed: ${e.message}`));
      finish();
    };
    return w;
  };
  const next = () => {
    clearTimeout(idle);
    const job = queue.shift();
    if (job === undefined) {
      idle = setTimeout(endWorker, IDLE_MS);
      Deno.unrefTimer(idle);
      return;
    }
    worker ??= startWorker();
    running = { job };
    if (ready) {
      startReading();
    } else {
      running.timer = setTimeout(() => {
        endWorker();
        job.reject(new Busy(5, "Starting the dependency file reader"));
        finish();
      }, startDeadlineMs);
    }
  };

  return {
    read(files) {
      if (queue.length >= maxWaiting) {
        return Promise.reject(new Busy(5, "Reading dependency files"));
      }
      return new Promise((resolve, reject) => {
        queue.push({ files, resolve, reject });
        if (running === null) next();
      });
    },
    close() {
      clearTimeout(idle);
      if (running) {
        clearTimeout(running.timer);
        running.job.reject(new Busy(5, "The server is stopping: reading dependency files"));
        running = null;
      }
      for (const job of queue.splice(0)) {
        job.reject(new Busy(5, "The server is stopping: reading dependency files"));
      }
      endWorker();
    },
  };
}

if (isDependencyReaderWorker()) {
  const scope = globalThis as unknown as {
    onmessage: ((e: MessageEvent<DependencyFile[]>) => void) | null;
    postMessage(a: (FileDependencies | FileProblem)[] | typeof READY): void;
  };
  scope.onmessage = (e) => {
    scope.postMessage(e.data.map((f) => readDependencyFile(f.name, f.content)));
  };
  scope.postMessage(READY);
}
