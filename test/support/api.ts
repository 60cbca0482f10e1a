import { expect } from 'vitest';
import type { TestService } from './hosts.ts';

export interface TodoJson {
  id: string;
  title: string;
  completed: boolean;
}

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
export const MISSING_ID = '00000000-0000-4000-8000-000000000000';

/** A request with a JSON body, as a well-behaved client sends it. */
export function sendJson(method: string, body: unknown, headers: HeadersInit = {}): RequestInit {
  return {
    method,
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  };
}

export async function createTodo(
  service: TestService,
  fields: Record<string, unknown> = { title: 'Buy milk' },
): Promise<TodoJson> {
  const response = await service.fetch(service.paths.todos, sendJson('POST', fields));
  expect(response.status).toBe(201);
  return (await response.json()) as TodoJson;
}

/** The list and its ETag: together they show whether anything changed. */
export async function listState(
  service: Pick<TestService, 'fetch' | 'paths'>,
): Promise<{ etag: string; todos: TodoJson[] }> {
  const response = await service.fetch(service.paths.todos);
  expect(response.status).toBe(200);
  return { etag: response.headers.get('etag') ?? '', todos: (await response.json()) as TodoJson[] };
}

export async function expectProblem(response: Response, status: number): Promise<ProblemJson> {
  expect(response.status).toBe(status);
  expect(response.headers.get('content-type')).toBe('application/problem+json; charset=utf-8');
  const problem = (await response.json()) as ProblemJson;
  expect(problem).toMatchObject({ status, title: expect.any(String), detail: expect.any(String) });
  return problem;
}

export interface ProblemJson {
  type?: string;
  title: string;
  status: number;
  detail: string;
  instance?: string;
  errors?: { pointer: string; detail: string }[];
}

/**
 * `path`, written as a path of the default list (`/api/todos…`, `/api/sse…`), as the same path
 * of the list under test: for tables of requests written before any service starts.
 */
export function onList(service: TestService, path: string): string {
  return path
    .replace(/^\/api\/todos(?=[/?]|$)/, service.paths.todos)
    .replace(/^\/api\/sse(?=[/?]|$)/, service.paths.sse);
}
