import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { readFileSync } from 'node:fs';
import { OPENAPI_FILE, withSettings } from '../../src/api/site.ts';
import type { AppConfig } from '../../src/config.ts';
import { PROJECT_ROOT } from '../../src/hosts/node/file-assets.ts';
import { appConfig, type TestHost } from './hosts.ts';

interface Document {
  readonly paths: Record<string, Record<string, unknown>>;
  readonly components: { readonly responses: Record<string, Described> };
}

/** The OpenAPI document the service serves with `config`, as `npm run build` made it. */
export function openApiDocument(config: AppConfig): Document {
  const template = readFileSync(`${PROJECT_ROOT}public/${OPENAPI_FILE}`, 'utf8');
  return JSON.parse(withSettings(template, config)) as Document;
}
interface Described {
  $ref?: string;
  headers?: Record<string, unknown>;
  content?: Record<string, unknown>;
}
interface Operation {
  responses: Record<string, Described>;
  requestBody?: { content: Record<string, unknown> };
}

/** Every `<METHOD> <path> <status>` the document lists. */
export function documentedStatuses(document: Document): string[] {
  return Object.entries(document.paths).flatMap(([path, item]) =>
    Object.entries(item as Record<string, Operation>)
      .filter(([method]) => method !== 'parameters')
      .flatMap(([method, operation]) =>
        Object.keys(operation.responses).map(
          (status) => `${method.toUpperCase()} ${path} ${status}`,
        ),
      ),
  );
}

const mediaTypeOf = (contentType: string | null) => contentType?.split(';')[0]!.trim() ?? '';
const pointer = (...keys: string[]) =>
  keys.map((key) => '/' + key.replaceAll('~', '~0').replaceAll('/', '~1')).join('');

/**
 * Holds every answer to the API description served at /api/openapi.json: its status must be
 * one the document lists for the operation, its headers and body must match what the document
 * says, and a body the service accepted must be one the document accepts. A change made on one
 * side only, the code or the document, fails the test whose request shows it.
 */
export class OpenApiCheck {
  readonly document: Document;
  readonly #ajv = new Ajv2020({ strict: false, allErrors: true });
  readonly #validators = new Map<string, ValidateFunction>();

  /**
   * `seen` collects every `<METHOD> <path> <status>` the document lists that a checked answer
   * showed: the caller that owns it can tell which statuses its own requests reached.
   */
  constructor(
    config: AppConfig,
    readonly seen = new Set<string>(),
  ) {
    this.document = openApiDocument(config);
    addFormats.default(this.#ajv);
    this.#ajv.addSchema(this.document, 'openapi');
  }

  async check(method: string, url: URL, init: RequestInit | undefined, response: Response) {
    const problems = await this.#problemsOf(method, url, init, response);
    if (problems.length > 0) {
      throw new Error(
        `${method} ${url.pathname} answered ${response.status}, which the OpenAPI document does not describe:\n  ${problems.join('\n  ')}`,
      );
    }
  }

  async #problemsOf(method: string, url: URL, init: RequestInit | undefined, response: Response) {
    const path = this.#documentedPath(url.pathname);
    if (path === undefined) {
      // Files of the site are not described one by one; an unknown API path is 404.
      if (!url.pathname.startsWith('/api/')) return [];
      return response.status === 404
        ? this.#problemBody(response)
        : ['an unknown API path must be 404'];
    }
    const item = this.document.paths[path as keyof Document['paths']] as Record<string, Operation>;
    // HEAD is served wherever GET is, as the document's description says, the stream aside.
    const key = method === 'HEAD' && !path.endsWith('/sse') ? 'get' : method.toLowerCase();
    const operation = item[key];
    if (operation === undefined || key === 'parameters') {
      if (response.status !== 405) return [`${method} is not in the document, so it must be 405`];
      const allow = response.headers.get('allow') ?? '';
      if (allow === '') return ['a 405 must name the methods in Allow'];
      return method === 'HEAD' ? [] : this.#problemBody(response);
    }
    const status = String(response.status);
    if (operation.responses[status] === undefined) {
      return [`the document lists ${Object.keys(operation.responses).join(', ')} only`];
    }
    this.seen.add(`${key.toUpperCase()} ${path} ${status}`);
    const answer = this.#resolved(['paths', path, key, 'responses', status]);
    const problems = this.#missingHeaders(answer.value, response);
    if (method !== 'HEAD') problems.push(...(await this.#bodyProblems(answer, response)));
    if (response.ok && operation.requestBody) {
      problems.push(
        ...this.#requestProblems(this.#resolved(['paths', path, key, 'requestBody']), init),
      );
    }
    return problems;
  }

  /** The part of the document at `at`, its `$ref` followed, and where that part really is. */
  #resolved(at: string[]): { value: Described; at: string[] } {
    let value = at.reduce<unknown>(
      (part, key) => (part as Record<string, unknown>)[key],
      this.document,
    );
    const ref = (value as Described).$ref;
    if (ref === undefined) return { value: value as Described, at };
    const target = ref.slice(2).split('/');
    value = target.reduce<unknown>(
      (part, key) => (part as Record<string, unknown>)[key],
      this.document,
    );
    return { value: value as Described, at: target };
  }

  #documentedPath(pathname: string): string | undefined {
    const trimmed = pathname.length > 1 ? pathname.replace(/\/$/, '') : pathname;
    if (trimmed in this.document.paths) return trimmed;
    const list = trimmed.replace(/^(\/api)?\/lists\/[^/]+(?=\/|$)/, '$1/lists/{listId}');
    if (list in this.document.paths) return list;
    const item = list.replace(/^(\/api(?:\/lists\/\{listId\})?\/todos)\/[^/]+$/, '$1/{id}');
    if (item in this.document.paths) return item;
    return undefined;
  }

  #missingHeaders(described: Described, response: Response): string[] {
    return Object.keys(described.headers ?? {})
      .filter((name) => !response.headers.has(name))
      .map((name) => `the document says it has the header ${name}, and it has not`);
  }

  async #bodyProblems(
    { value: described, at }: { value: Described; at: string[] },
    response: Response,
  ) {
    const mediaType = mediaTypeOf(response.headers.get('content-type'));
    if (described.content === undefined) {
      const text = await response.clone().text();
      return text === '' ? [] : ['the document says it has no body, and it has one'];
    }
    if (!(mediaType in described.content)) {
      return [`its type ${mediaType} is not one of ${Object.keys(described.content).join(', ')}`];
    }
    if (!mediaType.endsWith('json')) return [];
    const validate = this.#validator(pointer(...at, 'content', mediaType, 'schema'));
    return this.#schemaProblems(validate, await response.clone().json(), 'body');
  }

  #requestProblems({ at }: { at: string[] }, init: RequestInit | undefined): string[] {
    // An empty body is no body: an operation whose body is optional accepts that.
    if (typeof init?.body !== 'string' || init.body === '') return [];
    const validate = this.#validator(pointer(...at, 'content', 'application/json', 'schema'));
    return this.#schemaProblems(validate, JSON.parse(init.body), 'accepted request body');
  }

  async #problemBody(response: Response): Promise<string[]> {
    const validate = this.#validator(pointer('components', 'schemas', 'Problem'));
    return this.#schemaProblems(validate, await response.clone().json(), 'problem');
  }

  #schemaProblems(validate: ValidateFunction, value: unknown, what: string): string[] {
    if (validate(value)) return [];
    return (validate.errors ?? []).map(
      (error) =>
        `${what} ${error.instancePath || '(root)'} ${error.message} (${JSON.stringify(value)})`,
    );
  }

  #validator(at: string): ValidateFunction {
    let validate = this.#validators.get(at);
    if (validate === undefined) {
      validate = this.#ajv.compile({ $ref: `openapi#${encodeURI(at)}` });
      this.#validators.set(at, validate);
    }
    return validate;
  }
}

/**
 * `host`, with every answer its services give held to the OpenAPI document made with the same
 * limits: an answer the document does not describe fails the request that got it.
 */
export function checkedAgainstOpenApi(host: TestHost, seen?: Set<string>): TestHost {
  return {
    ...host,
    async start(options = {}) {
      const service = await host.start(options);
      const openApi = new OpenApiCheck(appConfig(options), seen);
      const checked = async (path: string, init: RequestInit | undefined, response: Response) => {
        const method = (init?.method ?? 'GET').toUpperCase();
        await openApi.check(method, new URL(path, 'http://localhost'), init, response);
        return response;
      };
      return {
        ...service,
        fetch: async (path, init) => checked(path, init, await service.fetch(path, init)),
        fetchFrom: async (address, path, init) =>
          checked(path, init, await service.fetchFrom(address, path, init)),
      };
    },
  };
}
