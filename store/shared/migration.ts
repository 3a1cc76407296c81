/**
 * One schema step, as both engines' migration lists hold them.
 * @module
 */

/** One schema step. Never edit one that has shipped: add a new one. */
export interface Migration {
  readonly version: number;
  readonly name: string;
  readonly sql: string;
}
