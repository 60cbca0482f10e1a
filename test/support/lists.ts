import { expect } from 'vitest';
import { LISTS_PATH, listPathOf } from '../../src/model/resources.ts';
import { sendJson } from './api.ts';
import type { TestService } from './hosts.ts';

export interface ListJson {
  id: string;
  title: string;
  viewId: string;
}

/** A list as a client makes it, with the ETag of its title. */
export async function createList(
  service: TestService,
  title?: string,
): Promise<ListJson & { etag: string }> {
  const response = await service.fetch(
    LISTS_PATH,
    title === undefined ? { method: 'POST' } : sendJson('POST', { title }),
  );
  expect(response.status).toBe(201);
  const list = (await response.json()) as ListJson;
  return { ...list, etag: response.headers.get('etag') ?? '' };
}

/** The list as `GET /api/lists/{id}` gives it, with its ETag; the answer must be 200. */
export async function readList(
  service: TestService,
  id: string,
): Promise<{ list: ListJson; etag: string }> {
  const response = await service.fetch(listPathOf(id));
  expect(response.status).toBe(200);
  return { list: (await response.json()) as ListJson, etag: response.headers.get('etag') ?? '' };
}

/** An id of the right shape that no list was ever made with. */
export const NEVER_MADE_ID = 'AAAAAAAAAAAAAAAAAAAAAA';
/** One that could never be a list's id: too short. */
export const MALFORMED_ID = 'not-an-id';
