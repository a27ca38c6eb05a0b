/**
 * @module web/dashboard/paging
 * Newest-first lists in pages: the `before` query value says where a page
 * starts (`<epoch ms>.<id>` of the last object of the page before). A
 * value that is not one starts at the newest.
 */
import type { Page } from '../../domain/pages.ts';
import type { PageCursor, PageRequest } from '../../domain/pages.ts';

export const PAGE_SIZE = 50;

const CURSOR = /^(\d{1,15})\.([0-9a-f-]{36})$/;

export function pageRequest(query: unknown, limit = PAGE_SIZE): PageRequest {
  const value = (query as Record<string, unknown> | undefined)?.before;
  const match = typeof value === 'string' ? CURSOR.exec(value) : null;
  return { limit, before: match ? { createdAt: new Date(Number(match[1])), id: match[2]! } : undefined };
}

function cursorValue(cursor: PageCursor): string {
  return `${cursor.createdAt.getTime()}.${cursor.id}`;
}

/** Links of a page's pager: to the next (older) page, and back to the newest when not on it. */
export function pager(path: string, request: PageRequest, page: Page<unknown>): { older?: string; newest?: string } {
  return {
    older: page.next ? `${path}?before=${cursorValue(page.next)}` : undefined,
    newest: request.before ? path : undefined,
  };
}
