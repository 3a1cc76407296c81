/**
 * A dependency reader worker that takes `?delay=` ms to start, as the real one can on a busy
 * machine while it loads its modules.
 * @module
 */
const delay = Number(new URL(import.meta.url).searchParams.get("delay") ?? "0");
await new Promise((r) => setTimeout(r, delay));
await import("../../../app/dependency_reader.ts");
