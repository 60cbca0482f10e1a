import { describe, expect, it } from 'vitest';
import { createTodo, expectProblem, sendJson, listState } from '../support/api.ts';
import { useService, type TestHost } from '../support/hosts.ts';

interface BadBody {
  readonly name: string;
  readonly body: string;
  /** The JSON Pointer the error names, for problems with one field. */
  readonly pointer?: string;
}

const json = (value: unknown) => JSON.stringify(value);

/** Bodies refused by both POST and PUT; each is complete but for its one fault. */
const BAD_BODIES: readonly BadBody[] = [
  { name: 'malformed JSON', body: '{"title": "a", "completed": false,}' },
  { name: 'an empty body', body: '' },
  { name: 'a JSON array', body: '[{"title":"a","completed":false}]' },
  { name: 'a JSON string', body: '"Buy milk"' },
  { name: 'JSON null', body: 'null' },
  { name: 'a JSON number', body: '42' },
  { name: 'a missing title', body: json({ completed: false }), pointer: '/title' },
  {
    name: 'a title that is a number',
    body: json({ title: 42, completed: false }),
    pointer: '/title',
  },
  {
    name: 'a title that is null',
    body: json({ title: null, completed: false }),
    pointer: '/title',
  },
  {
    name: 'a title that is an array',
    body: json({ title: ['a'], completed: false }),
    pointer: '/title',
  },
  { name: 'an empty title', body: json({ title: '', completed: false }), pointer: '/title' },
  {
    name: 'a title of only spaces',
    body: json({ title: '   ', completed: false }),
    pointer: '/title',
  },
  {
    name: 'a title of only other whitespace',
    body: json({ title: '\t\n\u00a0\u3000', completed: false }),
    pointer: '/title',
  },
  {
    name: 'a title one character over the limit',
    body: json({ title: 'x'.repeat(1001), completed: false }),
    pointer: '/title',
  },
  {
    name: 'a title of 1001 astral characters',
    body: json({ title: '🐈'.repeat(1001), completed: false }),
    pointer: '/title',
  },
  {
    name: 'completed as a string',
    body: json({ title: 'a', completed: 'true' }),
    pointer: '/completed',
  },
  {
    name: 'completed as a number',
    body: json({ title: 'a', completed: 1 }),
    pointer: '/completed',
  },
  { name: 'completed as null', body: json({ title: 'a', completed: null }), pointer: '/completed' },
  {
    name: 'an unknown key',
    body: json({ title: 'a', completed: false, done: true }),
    pointer: '/done',
  },
  {
    name: 'a __proto__ key',
    body: '{"title":"a","completed":false,"__proto__":{"polluted":true}}',
    pointer: '/__proto__',
  },
  {
    name: 'a constructor key',
    body: json({ title: 'a', completed: false, constructor: { prototype: {} } }),
    pointer: '/constructor',
  },
  {
    name: 'a key that needs escaping in a pointer',
    body: json({ title: 'a', completed: false, 'a/b~c': 1 }),
    pointer: '/a~1b~0c',
  },
];

/** docs/api.md, Request bodies: every bad input is refused clearly and changes nothing. */
export function badBodiesSuite(host: TestHost) {
  describe('bad bodies on POST', () => {
    const api = useService(host);

    it.each(BAD_BODIES)('refuses $name with 400 and changes nothing', async ({ body, pointer }) => {
      await createTodo(api());
      const before = await listState(api());
      const problem = await expectProblem(
        await api().fetch(api().paths.todos, sendJson('POST', body)),
        400,
      );
      if (pointer) expect(problem.errors?.map((error) => error.pointer)).toEqual([pointer]);
      expect(await listState(api())).toEqual(before);
    });

    it('refuses an id on create with 400 naming /id', async () => {
      const problem = await expectProblem(
        await api().fetch(
          api().paths.todos,
          sendJson('POST', { id: crypto.randomUUID(), title: 'a' }),
        ),
        400,
      );
      expect(problem.errors).toEqual([{ pointer: '/id', detail: expect.any(String) }]);
      expect((await listState(api())).todos).toEqual([]);
    });

    it('tells a client that sent no body to send a JSON object', async () => {
      const response = await api().fetch(api().paths.todos, sendJson('POST', ''));
      expect((await expectProblem(response, 400)).detail).toMatch(/empty.*JSON object/);
    });

    it('names an unknown key in the detail', async () => {
      const response = await api().fetch(
        api().paths.todos,
        sendJson('POST', { title: 'a', colour: 'red' }),
      );
      expect((await expectProblem(response, 400)).detail).toContain('colour');
    });

    it('reports one error per problem', async () => {
      const response = await api().fetch(
        api().paths.todos,
        sendJson('POST', { title: 7, completed: 'no', extra: 1 }),
      );
      const pointers = (await expectProblem(response, 400)).errors?.map((error) => error.pointer);
      expect(pointers?.sort()).toEqual(['/completed', '/extra', '/title']);
    });

    it('lets a __proto__ key pollute no object', async () => {
      await api().fetch(
        api().paths.todos,
        sendJson('POST', '{"title":"a","__proto__":{"polluted":1}}'),
      );
      const created = await createTodo(api(), { title: 'clean' });
      expect(Object.keys(created).sort()).toEqual(['completed', 'id', 'title']);
      // Both hosts run in this process, so pollution would show on any plain object here.
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    });

    it('accepts a title of exactly the limit in astral characters', async () => {
      const title = '🐈'.repeat(1000);
      expect((await createTodo(api(), { title })).title).toBe(title);
    });
  });

  describe('bad bodies on PUT', () => {
    const api = useService(host);

    const BAD_PUT_BODIES: readonly BadBody[] = [
      ...BAD_BODIES,
      { name: 'a missing completed', body: json({ title: 'a' }), pointer: '/completed' },
    ];

    it.each(BAD_PUT_BODIES)(
      'refuses $name with 400 and changes nothing',
      async ({ body, pointer }) => {
        const todo = await createTodo(api());
        const before = await listState(api());
        const response = await api().fetch(
          `${api().paths.todos}/${todo.id}`,
          sendJson('PUT', body),
        );
        const problem = await expectProblem(response, 400);
        if (pointer) expect(problem.errors?.map((error) => error.pointer)).toEqual([pointer]);
        expect(await listState(api())).toEqual(before);
      },
    );

    it('refuses an id that differs from the path with 400 naming /id', async () => {
      const todo = await createTodo(api());
      const before = await listState(api());
      const response = await api().fetch(
        `${api().paths.todos}/${todo.id}`,
        sendJson('PUT', { id: crypto.randomUUID(), title: 'a', completed: true }),
      );
      expect((await expectProblem(response, 400)).errors?.[0]?.pointer).toBe('/id');
      expect(await listState(api())).toEqual(before);
    });

    it('refuses an id that differs from the path only in case', async () => {
      const todo = await createTodo(api());
      const response = await api().fetch(
        `${api().paths.todos}/${todo.id}`,
        sendJson('PUT', { id: todo.id.toUpperCase(), title: 'a', completed: true }),
      );
      expect((await expectProblem(response, 400)).errors?.[0]?.pointer).toBe('/id');
    });
  });
}
