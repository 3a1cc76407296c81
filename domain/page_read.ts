/**
 * What reading a status page once, by its URL alone, found (a page a person adds, #47): its
 * platform, its own name and components, or why it could not be read, in a word a caller can
 * branch on and a sentence a person can act on.
 * @module
 */
import type { Platform } from "./service.ts";
import type { StatusLevel } from "./status.ts";

/** Why a page could not be read. */
export type PageReadFailure =
  /** The page did not answer (DNS, connection, timeout, an error status). */
  | "unreachable"
  /** The page is on an address this statusd may not reach (loopback, private, …). */
  | "refused_address"
  /** It answered, but no platform statusd reads answered there. */
  | "not_a_status_page"
  /** A platform statusd recognises but cannot read (an HTML-only page, a generator it lacks). */
  | "unsupported"
  /** The page or the platform's document did not read (too large, not its shape). */
  | "unreadable";

/** What reading a page once found. */
export type PageRead =
  | {
    readonly ok: true;
    readonly platform: Platform;
    /** What the page calls itself (its data's page name, else its title), else its host. */
    readonly name: string;
    /** The page's URL after redirects (what is stored). */
    readonly url: string;
    /** The host names the page and its data were served from. */
    readonly hosts: readonly string[];
    readonly indicator: StatusLevel;
    readonly components: readonly string[];
  }
  | { readonly ok: false; readonly reason: PageReadFailure; readonly message: string };
