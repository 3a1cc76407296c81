/**
 * `store.groups` and `store.boards`: named sets of monitors, and ordered layouts of
 * groups and monitors that an account may publish under a slug. Both carry a version every
 * write bumps (the API's ETag). A group or board keeps the ids it was given: a monitor deleted
 * since is skipped when read, never an error.
 * @module
 */
import type { PageRequest } from "../page.ts";
import type { Logo } from "../logo.ts";
import type { EpochMs } from "../time.ts";

/** A stored group of monitors. */
export interface GroupRecord {
  readonly id: string;
  readonly accountId: string;
  readonly name: string;
  /** Monitor ids, in the group's order. */
  readonly monitorIds: readonly string[];
  readonly createdAt: EpochMs;
  readonly updatedAt: EpochMs;
  readonly version: number;
}

/** One entry of a board's layout. */
export interface BoardItem {
  readonly kind: "group" | "monitor";
  readonly id: string;
}

/** A stored board. */
export interface BoardRecord {
  readonly id: string;
  readonly accountId: string;
  /** Unique on this server; its public address is `/b/{slug}`. */
  readonly slug: string;
  readonly title: string;
  /** Readable by anyone at `/b/{slug}` and `/api/boards/{slug}` when true. */
  readonly public: boolean;
  readonly items: readonly BoardItem[];
  /** What its status page says under the title (absent on boards made before it existed). */
  readonly description?: string | null;
  /** The status page's accent colour, `#rrggbb`. */
  readonly accentColor?: string | null;
  /** Links the status page shows (the team's site, support). */
  readonly links?: readonly BoardLink[];
  /** A host of its own (`status.example.com`): requests for it are served this board. */
  readonly host?: string | null;
  /** The logo its status page shows (domain/logo.ts), kept with the board. */
  readonly logo?: Logo | null;
  /**
   * Its status page shows statusd's own public early warnings of its vendors (absent: off, the
   * owner turns it on).
   */
  readonly earlyWarning?: boolean;
  readonly createdAt: EpochMs;
  readonly updatedAt: EpochMs;
  readonly version: number;
}

/** Why a create or update was refused. */
export type WriteRefusal = "limit" | "slug_taken" | "conflict";

/** The operations both nouns share, over their record type `R`. */
export interface AccountDocStore<R, New, Patch> {
  /** Creates `doc` unless the account has `limit` of them already (null: no limit). */
  create(doc: New, limit: number | null): Promise<R | "limit" | "slug_taken">;
  /** One page of the account's, oldest first, and how many it has. */
  list(accountId: string, page: PageRequest): Promise<{ items: readonly R[]; total: number }>;
  /** The account's one with `id`, or null. */
  get(accountId: string, id: string): Promise<R | null>;
  /** Applies `patch` at `at` when the version is `ifVersion` (null: any). */
  update(
    accountId: string,
    id: string,
    patch: Patch,
    at: EpochMs,
    ifVersion: number | null,
  ): Promise<R | null | "conflict" | "slug_taken">;
  /** Deletes it when the version is `ifVersion` (null: any). */
  delete(accountId: string, id: string, ifVersion: number | null): Promise<boolean | "conflict">;
}

/** A group to create. */
export type NewGroup = Omit<GroupRecord, "updatedAt" | "version">;
/** What a group update may change. */
export type GroupPatch = Partial<Pick<GroupRecord, "name" | "monitorIds">>;
/** The groups noun. */
export type GroupStore = AccountDocStore<GroupRecord, NewGroup, GroupPatch>;

/** A board to create. */
export type NewBoard = Omit<BoardRecord, "updatedAt" | "version">;
/** What a board update may change. */
export type BoardPatch = Partial<
  Pick<
    BoardRecord,
    | "slug"
    | "title"
    | "public"
    | "items"
    | "description"
    | "accentColor"
    | "links"
    | "host"
    | "logo"
  >
>;

/** A link on a board's status page. */
export interface BoardLink {
  readonly label: string;
  /** An http(s) URL. */
  readonly url: string;
}
/** The boards noun: the shared operations and the public read by slug. */
export interface BoardStore extends AccountDocStore<BoardRecord, NewBoard, BoardPatch> {
  /** The board with `slug`, whoever owns it (callers decide who may see it). */
  bySlug(slug: string): Promise<BoardRecord | null>;
  /** Every board, of any account, that names a host of its own (public or not). */
  withHost(): Promise<readonly BoardRecord[]>;
}
