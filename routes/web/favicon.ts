/**
 * The site icon: an SVG (linked by every page) and a 32×32 `/favicon.ico` for clients that ask
 * for it by name, drawn here from the same shape (a green disc with a white tick) so the bundle
 * carries no binary file. Both are cached for a week and carry an ETag.
 * @module
 */
import { deflateSync } from "node:zlib";
import { sha256 } from "@oslojs/crypto/sha2";
import { encodeHexLowerCase } from "@oslojs/encoding";
import type { Register } from "../register.ts";

/** The icon as SVG. */
export const FAVICON_SVG = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32">' +
  '<circle cx="16" cy="16" r="15" fill="#1a7f37"/>' +
  '<path d="M9 16.5l4.5 4.5L23 11.5" fill="none" stroke="#fff" stroke-width="3.5" ' +
  'stroke-linecap="round" stroke-linejoin="round"/></svg>';

/** Where pages link the icon. */
export const FAVICON_PATHS = { svg: "/favicon.svg", ico: "/favicon.ico" } as const;

const SIZE = 32;
const GREEN = [0x1a, 0x7f, 0x37];

/** Distance from point p to segment a–b. */
function toSegment(px: number, py: number, a: number[], b: number[]): number {
  const [ax, ay] = a as [number, number];
  const [bx, by] = b as [number, number];
  const t = Math.max(
    0,
    Math.min(
      1,
      ((px - ax) * (bx - ax) + (py - ay) * (by - ay)) /
        ((bx - ax) ** 2 + (by - ay) ** 2),
    ),
  );
  return Math.hypot(px - (ax + t * (bx - ax)), py - (ay + t * (by - ay)));
}

/** RGBA rows of the icon, each prefixed with PNG filter byte 0. */
function pixels(): Uint8Array {
  const out = new Uint8Array(SIZE * (SIZE * 4 + 1));
  const tick = [[9, 16.5], [13.5, 21], [23, 11.5]];
  for (let y = 0; y < SIZE; y++) {
    out[y * (SIZE * 4 + 1)] = 0;
    for (let x = 0; x < SIZE; x++) {
      const cx = x + 0.5;
      const cy = y + 0.5;
      const disc = Math.max(0, Math.min(1, 15.5 - Math.hypot(cx - 16, cy - 16)));
      const line = Math.min(
        toSegment(cx, cy, tick[0]!, tick[1]!),
        toSegment(cx, cy, tick[1]!, tick[2]!),
      );
      const white = Math.max(0, Math.min(1, 2.25 - line));
      const i = y * (SIZE * 4 + 1) + 1 + x * 4;
      for (let k = 0; k < 3; k++) out[i + k] = Math.round(GREEN[k]! * (1 - white) + 255 * white);
      out[i + 3] = Math.round(255 * disc);
    }
  }
  return out;
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (const b of bytes) c = CRC_TABLE[(c ^ b) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Uint8Array): Uint8Array {
  const out = new Uint8Array(12 + data.length);
  const view = new DataView(out.buffer);
  view.setUint32(0, data.length);
  out.set(new TextEncoder().encode(type), 4);
  out.set(data, 8);
  view.setUint32(8 + data.length, crc32(out.subarray(4, 8 + data.length)));
  return out;
}

function concat(parts: Uint8Array[]): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** The icon as a PNG (8-bit RGBA). */
function png(): Uint8Array<ArrayBuffer> {
  const header = new Uint8Array(13);
  const view = new DataView(header.buffer);
  view.setUint32(0, SIZE);
  view.setUint32(4, SIZE);
  header.set([8, 6, 0, 0, 0], 8);
  return concat([
    new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", header),
    chunk("IDAT", new Uint8Array(deflateSync(pixels()))),
    chunk("IEND", new Uint8Array()),
  ]);
}

/** An ICO file holding one PNG image (allowed since Windows Vista; every browser reads it). */
export function faviconIco(): Uint8Array<ArrayBuffer> {
  const image = png();
  const head = new Uint8Array(22);
  const view = new DataView(head.buffer);
  view.setUint16(2, 1, true); // type: icon
  view.setUint16(4, 1, true); // one image
  head.set([SIZE, SIZE, 0, 0], 6); // width, height, no palette, reserved
  view.setUint16(10, 1, true); // colour planes
  view.setUint16(12, 32, true); // bits per pixel
  view.setUint32(14, image.length, true);
  view.setUint32(18, 22, true); // offset of the image
  return concat([head, image]);
}

let ico: { body: Uint8Array<ArrayBuffer>; etag: string } | null = null;

function tagged(bytes: Uint8Array): string {
  return `"${encodeHexLowerCase(sha256(bytes)).slice(0, 32)}"`;
}

/** Serves `/favicon.svg` and `/favicon.ico` (a week of caching; 304 on a matching ETag). */
export const registerFavicon: Register = (api) => {
  const svg = new TextEncoder().encode(FAVICON_SVG);
  const svgTag = tagged(svg);
  const send = (
    ifNoneMatch: string | undefined,
    body: Uint8Array<ArrayBuffer>,
    etag: string,
    type: string,
  ) => {
    const headers = { "Cache-Control": "public, max-age=604800", ETag: etag };
    if (ifNoneMatch === etag) return new Response(null, { status: 304, headers });
    return new Response(body, { headers: { ...headers, "Content-Type": type } });
  };
  api.get(
    FAVICON_PATHS.svg,
    (c) => send(c.req.header("if-none-match"), svg, svgTag, "image/svg+xml"),
  );
  api.get(FAVICON_PATHS.ico, (c) => {
    if (!ico) {
      const body = faviconIco();
      ico = { body, etag: tagged(body) };
    }
    return send(c.req.header("if-none-match"), ico.body, ico.etag, "image/x-icon");
  });
};
