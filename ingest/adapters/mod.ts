/**
 * The registry of platform adapters: the only list to edit when adding a platform.
 * @module
 */
import type { Platform } from "../../domain/mod.ts";
import type { Adapter } from "./adapter.ts";

export type { Adapter, ParseContext } from "./adapter.ts";
export { PayloadError } from "./adapter.ts";

/** Adapters by platform; platforms without one (html, unknown) are not polled for data. */
export const ADAPTERS: Partial<Record<Platform, Adapter>> = {};
