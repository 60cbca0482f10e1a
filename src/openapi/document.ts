import type { AppConfig } from '../config.ts';
import { componentsFor } from './components.ts';
import { IDEMPOTENCY_KEY_PARAMETER } from './idempotency.ts';
import { listComponents } from './list-components.ts';
import { pathsFor } from './paths.ts';

const DESCRIPTION = `To-do lists with a live event stream. Every host (Node, Cloudflare Workers)
serves the same API.

- **Lists:** \`/api/todos\` and \`/api/sse\` are the default list, which everyone shares. \`POST
  /api/lists\` makes a named list; its items and stream are at \`/api/lists/{listId}/todos\` and
  \`/api/lists/{listId}/sse\`, under the same rules. Anyone with a list's id can read and change
  it; there is no way to list the lists.
- **Errors** are \`application/problem+json\` (RFC 9457), their \`instance\` the request's id.
- **Checks on a body** run in this order, and the first that fails answers: the route and the
  id (404), the media type (415), \`If-Match\` (412), the size (413), JSON syntax and shape (400),
  the fields (400), the list's capacity (507). A named list's routes first check the list (404).
- **Methods:** HEAD is served wherever GET is (the event stream aside), with the same status and
  headers and no body. Any other method a path does not list is 405 with an \`Allow\` header.
- **CORS:** every answer under \`/api/\` allows any origin and exposes \`Location\` and \`ETag\`;
  no credentials.
- **Request ids:** a client's \`X-Request-Id\` of 1 to 128 URI-safe characters is kept, else the
  service makes a UUID; every answer carries it.
- A trailing slash is ignored: \`/api/todos/\` is \`/api/todos\`.`;

const REQUEST_ID_HEADER = {
  description: "The request's id: the client's `X-Request-Id` if acceptable, else a new UUID.",
  schema: { type: 'string' },
};

/** The OpenAPI 3.1 description of the service, with the limits `config` sets. */
export function openApiDocument(config: AppConfig) {
  const paths = pathsFor(config);
  for (const item of Object.values(paths)) {
    for (const operation of Object.values(item)) {
      if (!('responses' in operation)) continue;
      for (const response of Object.values(operation.responses) as { headers?: object }[]) {
        response.headers = {
          ...response.headers,
          'X-Request-Id': { $ref: '#/components/headers/XRequestId' },
        };
      }
    }
  }
  const components = componentsFor(config.limits);
  const lists = listComponents(config.limits);
  return {
    openapi: '3.1.1',
    info: { title: 'To-do service', version: '1.0.0', description: DESCRIPTION },
    paths,
    components: {
      schemas: { ...components.schemas, ...lists.schemas },
      parameters: {
        ...components.parameters,
        ...lists.parameters,
        IdempotencyKey: IDEMPOTENCY_KEY_PARAMETER,
      },
      headers: { ...components.headers, ...lists.headers, XRequestId: REQUEST_ID_HEADER },
    },
  };
}
