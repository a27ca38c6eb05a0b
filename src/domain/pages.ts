/**
 * @module domain/pages
 * Long lists are read a page at a time, newest first: a page says where
 * the next one starts, or that there is none. The page size is bounded
 * here, whatever an edge asks for.
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

export const PAGE_SIZE_MAX = 100;

export interface Page<T> {
  items: T[];
  /** Where the next (older) page starts; absent on the last page. */
  next: PageCursor | undefined;
}

/** Reads one page through `read`, asking for one object more to learn whether another page follows. */
export async function readPage<T extends { id: string; createdAt: Date }>(
  page: PageRequest,
  read: (page: PageRequest) => Promise<T[]>,
): Promise<Page<T>> {
  const limit = Math.max(1, Math.min(PAGE_SIZE_MAX, Math.floor(page.limit)));
  const found = await read({ limit: limit + 1, before: page.before });
  const items = found.slice(0, limit);
  const last = items[items.length - 1];
  return { items, next: found.length > limit && last ? { createdAt: last.createdAt, id: last.id } : undefined };
}
