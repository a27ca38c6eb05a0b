/**
 * @module http/path-values
 * Path values that cannot name anything are answered 404 before any
 * database is asked: a slug that breaks the slug rules cannot be a room's,
 * a board or queue id that is not a UUID v4 cannot exist. This also keeps
 * bytes no database column holds (such as %00) away from the store.
 */
import { NotFoundError } from '../domain/errors.ts';
import { isUuidV4 } from '../domain/ids.ts';
import { slugProblem } from '../domain/slugs.ts';
import type { SpaceKind } from '../domain/types.ts';

export function roomSlug(slug: string): string {
  if (slugProblem(slug)) throw new NotFoundError('room');
  return slug;
}

/** Ids are generated lowercase; any spelling of one finds it, as for meetings. */
export function spaceId(kind: SpaceKind, id: string): string {
  if (!isUuidV4(id)) throw new NotFoundError(kind);
  return id.toLowerCase();
}
