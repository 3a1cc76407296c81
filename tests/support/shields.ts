/**
 * shields.io's endpoint badge schema as its documentation states it
 * (https://shields.io/badges/endpoint-badge): what `img.shields.io/endpoint?url=…` accepts.
 * Strict, so a field shields does not know fails too.
 * @module
 */
import { z } from "zod";

/** One endpoint badge document. */
export const ShieldsEndpointSchema = z.object({
  /** Required. Always the number 1. */
  schemaVersion: z.literal(1),
  /** Required. The left text, or the empty string to omit the left side. */
  label: z.string(),
  /** Required. Can't be empty. The right text. */
  message: z.string().min(1),
  color: z.string().min(1).optional(),
  labelColor: z.string().min(1).optional(),
  /** True to treat this as an error badge (no colour override by the query string). */
  isError: z.boolean().optional(),
  namedLogo: z.string().optional(),
  logoSvg: z.string().optional(),
  logoColor: z.string().optional(),
  logoWidth: z.number().optional(),
  style: z.enum(["flat", "flat-square", "plastic", "for-the-badge", "social"]).optional(),
  /** The HTTP cache lifetime; values below shields' own default are ignored. */
  cacheSeconds: z.number().int().nonnegative().optional(),
}).strict();
