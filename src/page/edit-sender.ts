import { placeOfEventId } from '../model/events.ts';
import { ApiError } from './api-request.ts';
import type { DeleteEdit, Edit, UpdateEdit } from './pending-edit.ts';
import type { TodoApi } from './todo-api.ts';

/**
 * What became of an edit sent: `landed` (the item is `id` at `version` now; for a delete, the
 * version is empty), `retry` (the service was not reached, failed, or is still handling the
 * same create: send it again later), or `refused`, with a notice that names the item.
 */
export type Outcome =
  | { readonly kind: 'landed'; readonly id: string; readonly version: string }
  | { readonly kind: 'retry' }
  | { readonly kind: 'refused'; readonly notice: string };

const RETRY: Outcome = { kind: 'retry' };

/** Sends one edit: a create with its key, a change or a delete on the version it was made on. */
export async function sendEdit(api: TodoApi, edit: Edit): Promise<Outcome> {
  try {
    if (edit.kind === 'create') {
      const { todo, version } = await api.create(edit.title, edit.key);
      return { kind: 'landed', id: todo.id, version };
    }
    const ifMatch = await versionMadeOn(api, edit);
    if (ifMatch === undefined) return changedElsewhere(edit);
    if (edit.kind === 'delete') {
      await api.remove(edit.id, ifMatch);
      return { kind: 'landed', id: edit.id, version: '' };
    }
    const { title, completed } = edit;
    const { version } = await api.update({ id: edit.id, title, completed }, ifMatch);
    return { kind: 'landed', id: edit.id, version };
  } catch (error) {
    return failed(api, edit, error);
  }
}

/**
 * The item's version to send as `If-Match`. Without its own, the page knew the list's: the
 * item's current version, if no later than that, is the one the edit was made on.
 */
async function versionMadeOn(
  api: TodoApi,
  edit: UpdateEdit | DeleteEdit,
): Promise<string | undefined> {
  if (edit.base.item !== undefined) return edit.base.item;
  const { version } = await api.read(edit.id);
  return isNoLater(version, edit.base.list) ? version : undefined;
}

function isNoLater(version: string, than: string | undefined): boolean {
  const place = placeOfEventId(version);
  const limit = than === undefined ? undefined : placeOfEventId(than);
  if (place === undefined || limit === undefined) return false;
  return place.run === limit.run && place.sequence <= limit.sequence;
}

async function failed(api: TodoApi, edit: Edit, error: unknown): Promise<Outcome> {
  if (!(error instanceof ApiError) || error.transient || error.status === 409) return RETRY;
  if (edit.kind !== 'create' && error.status === 404) {
    // What a delete asked for is so; a change has nothing left to change.
    if (edit.kind === 'delete') return { kind: 'landed', id: edit.id, version: '' };
    return notApplied(edit, 'it was deleted elsewhere.');
  }
  if (edit.kind === 'update' && error.status === 412) {
    // An earlier try may have landed, its answer lost: then the item is as the edit wants it.
    const now = await api.read(edit.id).catch(() => undefined);
    const same = now?.todo.title === edit.title && now.todo.completed === edit.completed;
    if (same) return { kind: 'landed', id: edit.id, version: now.version };
  }
  if (edit.kind !== 'create' && error.status === 412) return changedElsewhere(edit);
  return notApplied(edit, error.detail);
}

function changedElsewhere(edit: Edit): Outcome {
  return notApplied(edit, 'it was changed elsewhere meanwhile.');
}

function notApplied(edit: Edit, why: string): Outcome {
  return { kind: 'refused', notice: `Your edit of “${edit.label}” did not apply: ${why}` };
}
