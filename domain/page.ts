/**
 * Pages of results (DESIGN §10).
 * @module
 */

/** Default and bounds of `limit`. */
export const PAGE_LIMIT_DEFAULT = 50;
export const PAGE_LIMIT_MAX = 500;

/** What a caller asks for: 0-based page and page size. */
export interface PageRequest {
  readonly page: number;
  readonly limit: number;
}

/** A page envelope as every list returns it. */
export interface Page<T> {
  readonly content: T[];
  readonly totalElements: number;
  readonly page: number;
  readonly size: number;
  readonly totalPages: number;
}

/** Builds the envelope from one page of items and the total count. */
export function pageOf<T>(content: T[], totalElements: number, req: PageRequest): Page<T> {
  return {
    content,
    totalElements,
    page: req.page,
    size: req.limit,
    totalPages: Math.ceil(totalElements / req.limit),
  };
}

/** SQL-style offset of a page request. */
export function offsetOf(req: PageRequest): number {
  return req.page * req.limit;
}
