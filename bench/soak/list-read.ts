import { Agent } from 'node:http';
import { parseEtag } from './event-ids.ts';
import { send } from '../http-request.ts';

export interface ListRead {
  /** The run and seq of the list's version, from its ETag. */
  readonly run: string;
  readonly seq: number;
  readonly ids: ReadonlySet<string>;
}

/** `GET /api/todos` on a connection of its own: the list's version and the ids it holds. */
export async function readList(port: number): Promise<ListRead> {
  const agent = new Agent();
  try {
    const answer = await send(agent, port, { method: 'GET', path: '/api/todos' });
    const version = parseEtag(answer.headers.etag);
    if (answer.status !== 200 || version === undefined) {
      throw new Error(`GET /api/todos answered ${answer.status}, ETag ${answer.headers.etag}`);
    }
    const ids = (JSON.parse(answer.body) as { id: string }[]).map((todo) => todo.id);
    return { ...version, ids: new Set(ids) };
  } finally {
    agent.destroy();
  }
}
