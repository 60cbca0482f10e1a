import type { ListInfo } from '../model/resources.ts';
import { LISTS_PATH, listPathOf } from '../model/resources.ts';
import { ApiError, discardBody, isNotFound, send, versionOf } from './api-request.ts';

/** A named list's title, with the version at which it was set (its ETag). */
export interface VersionedTitle {
  readonly title: string;
  readonly version: string;
}

/** The page's HTTP client of the lists themselves: make one, read, rename, delete. */
export class ListApi {
  /** Makes a new, untitled list. */
  async create(): Promise<ListInfo> {
    const response = await send('POST', LISTS_PATH);
    return (await readInfo(response)).info;
  }

  async read(id: string): Promise<VersionedTitle> {
    return (await readInfo(await send('GET', listPathOf(id)))).title;
  }

  /** Whether the list is there: false once deleted; rejects when the service cannot say. */
  async exists(id: string): Promise<boolean> {
    try {
      await discardBody(await send('GET', listPathOf(id)));
      return true;
    } catch (error) {
      if (isNotFound(error)) return false;
      throw error;
    }
  }

  /** Sets the title, whatever it was: a rename, as an edit of an item, is the last word. */
  async rename(id: string, title: string): Promise<VersionedTitle> {
    return (await readInfo(await send('PUT', listPathOf(id), { title }))).title;
  }

  async remove(id: string): Promise<void> {
    await discardBody(await send('DELETE', listPathOf(id)));
  }
}

async function readInfo(response: Response): Promise<{ info: ListInfo; title: VersionedTitle }> {
  const info = (await response.json().catch(() => undefined)) as Partial<ListInfo> | undefined;
  if (typeof info?.id !== 'string' || typeof info.title !== 'string') {
    throw new ApiError('The list could not be read.', true);
  }
  const { id, title } = info;
  return { info: { id, title }, title: { title, version: versionOf(response) } };
}
