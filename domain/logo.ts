/**
 * A board's logo as its page shows it: a PNG, JPEG or WebP image, at most {@link LOGO_MAX_BYTES},
 * sent as a `data:` URL and told apart by its first bytes (the declared type must match them).
 * Pure: no I/O.
 * @module
 */

/** Largest logo kept, in bytes (decoded). */
export const LOGO_MAX_BYTES = 100 * 1024;

/** The image types a logo may be. */
export const LOGO_TYPES = ["image/png", "image/jpeg", "image/webp"] as const;
/** One of {@link LOGO_TYPES}. */
export type LogoType = (typeof LOGO_TYPES)[number];

/** A stored logo: its type and its bytes as base64. */
export interface Logo {
  readonly type: LogoType;
  readonly base64: string;
}

/** The type the bytes are, by their signature, or null for anything else. */
export function imageTypeOf(bytes: Uint8Array): LogoType | null {
  const at = (i: number, ...values: number[]) => values.every((v, k) => bytes[i + k] === v);
  if (at(0, 0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return "image/png";
  if (at(0, 0xff, 0xd8, 0xff)) return "image/jpeg";
  if (at(0, 0x52, 0x49, 0x46, 0x46) && at(8, 0x57, 0x45, 0x42, 0x50)) return "image/webp";
  return null;
}

/** A logo's bytes (throws on base64 that cannot be read). */
export function logoBytes(logo: Logo): Uint8Array<ArrayBuffer> {
  return Uint8Array.from(atob(logo.base64), (c) => c.charCodeAt(0));
}

/**
 * A `data:<type>;base64,<bytes>` URL as a logo, or why it cannot be one (a sentence naming the
 * limit or the types).
 */
export function logoFromDataUrl(url: string): Logo | { readonly problem: string } {
  const comma = url.indexOf(",");
  const head = comma < 0 ? "" : url.slice(0, comma).toLowerCase();
  const type = LOGO_TYPES.find((t) => head === `data:${t};base64`);
  if (type === undefined) {
    return { problem: "a data: URL of a PNG, JPEG or WebP image (data:image/png;base64,…)" };
  }
  const body = url.slice(comma + 1);
  if (body.length > Math.ceil(LOGO_MAX_BYTES / 3) * 4 + 4) {
    return { problem: `at most ${LOGO_MAX_BYTES / 1024} KB` };
  }
  let bytes: Uint8Array;
  try {
    bytes = logoBytes({ type, base64: body });
  } catch {
    return { problem: "its base64 cannot be read" };
  }
  if (bytes.length > LOGO_MAX_BYTES) return { problem: `at most ${LOGO_MAX_BYTES / 1024} KB` };
  if (imageTypeOf(bytes) !== type) {
    return { problem: `its bytes are not a ${type.slice("image/".length).toUpperCase()} image` };
  }
  return { type, base64: body };
}
