/**
 * "Sync underneath, promises outside": node:sqlite runs every statement synchronously, and the
 * port is async. A noun is written as plain synchronous methods and wrapped once here, so each
 * call returns a settled promise (a throw becomes a rejection) and no method body needs an
 * `async` it does not use.
 * @module
 */

/** The methods of `T` that return promises. */
type AsyncMethods<T> = {
  [K in keyof T as T[K] extends (...args: never[]) => Promise<unknown> ? K : never]: T[K];
};

/** The same methods, returning their values directly. */
type Synchronous<T> = {
  [K in keyof T]: T[K] extends (...args: infer A) => Promise<infer R> ? (...args: A) => R : never;
};

/** Wraps synchronous methods into the async methods of `T`. */
export function promised<T>(methods: Synchronous<AsyncMethods<T>>): AsyncMethods<T> {
  const out: Record<string, unknown> = {};
  for (
    const [name, fn] of Object.entries(methods as Record<string, (...a: unknown[]) => unknown>)
  ) {
    out[name] = (...args: unknown[]) => {
      try {
        return Promise.resolve(fn(...args));
      } catch (err) {
        return Promise.reject(err);
      }
    };
  }
  return out as AsyncMethods<T>;
}
