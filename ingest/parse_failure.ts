/**
 * Which reading error kind an adapter's failure to parse a body is (domain/reading.ts): an
 * HTML page where a status document was due is `not_machine_readable`, a body that is not the
 * platform's format at all (not JSON, malformed XML) is `parse_error`, a document of the wrong
 * shape is `bad_payload` (its message names the path), and anything else an adapter throws is
 * `parse_error` too.
 * @module
 */
import type { ReadingErrorKind } from "../domain/mod.ts";
import { PayloadError, UndecodableError } from "./adapters/adapter.ts";

const HTML_PAGE = /^\s*(<!doctype\s+html|<html[\s>]|<head[\s>]|<body[\s>])/i;

/** True when `body` starts like an HTML page. */
export function looksLikeHtmlPage(body: string): boolean {
  return HTML_PAGE.test(
    body.slice(0, 1024).replace(/^\uFEFF/, "").replace(/^\s*<!--[\s\S]*?-->/, ""),
  );
}

/** The error kind of `err`, thrown by an adapter's `parse(body)`. */
export function parseFailureKind(err: unknown, body: string): ReadingErrorKind {
  if (!(err instanceof PayloadError)) return "parse_error";
  if (looksLikeHtmlPage(body)) return "not_machine_readable";
  return err instanceof UndecodableError ? "parse_error" : "bad_payload";
}
