/**
 * @module domain/ports/page-request
 * How the store is asked for one page of a newest-first list.
 */

/**
 * Where a newest-first list continues: after the object created at
 * `createdAt` with `id` (objects created in the same millisecond are
 * ordered by id), so a page never repeats or skips one while others are
 * added.
 */
export interface PageCursor {
  createdAt: Date;
  id: string;
}

/** One page of a newest-first list: at most `limit` objects older than `before`. */
export interface PageRequest {
  limit: number;
  before?: PageCursor | undefined;
}
