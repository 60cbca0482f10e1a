import type { IRequest } from 'itty-router';
import type { AppConfig } from '../config.ts';
import { HttpProblem, methodNotAllowed } from '../http/problem.ts';
import type { Responses } from '../http/responses.ts';
import type { Routes } from '../http/router.ts';
import { LIST_PAGE } from '../model/resources.ts';
import { lengthError } from './fields.ts';

/** The files of `public/`: `path` has passed `assetPathOf`, yet a host keeps each read inside. */
export interface AssetSource {
  read(path: string): Promise<Uint8Array | undefined>;
}

const MAX_NAME_LENGTH = 100;
const HEALTHY = JSON.stringify({ status: 'ok' });
export const OPENAPI_FILE = 'build/openapi.json';
const GET_OR_HEAD = methodNotAllowed('GET, HEAD');

export interface SiteRouteDeps {
  readonly config: AppConfig;
  readonly assets: AssetSource | undefined;
  readonly isDraining: () => boolean;
}

/** `/hello`, `/healthz` (503 once the service is going away, whatever the lists), the API's doc. */
export function addSiteRoutes(router: Routes, { config, assets, isDraining }: SiteRouteDeps) {
  const hello = (request: IRequest, responses: Responses) => {
    // The URL, not a merged query, keeps an empty first value first; most URLs have no query.
    const name = request.url.includes('?')
      ? (new URL(request.url).searchParams.get('name')?.trim() ?? '')
      : '';
    const tooLong = lengthError('name', name, MAX_NAME_LENGTH);
    if (tooLong) throw new HttpProblem(400, tooLong);
    return responses.text(200, `Hello, ${name || 'world'}!`);
  };

  const health = (_request: IRequest, responses: Responses) => {
    if (!isDraining()) return responses.json(200, HEALTHY);
    throw new HttpProblem(503, 'The service is shutting down; send requests to another instance.');
  };

  // Read on the first request for it, and again after a failure.
  let document: string | undefined;
  const describe = async (_request: IRequest, responses: Responses) => {
    if (document === undefined) {
      if (assets === undefined)
        throw new Error('This host serves no files, the OpenAPI document among them.');
      const bytes = await assets.read(OPENAPI_FILE);
      if (bytes === undefined)
        throw new Error(`public/${OPENAPI_FILE} is missing: run npm run build.`);
      document = withSettings(new TextDecoder().decode(bytes), config);
    }
    return responses.apiJson(200, document);
  };

  for (const [path, answer] of [
    ['/hello', hello],
    ['/healthz', health],
    ['/api/openapi.json', describe],
  ] as const) {
    router.get(path, answer).head(path, answer).all(path, GET_OR_HEAD);
  }
}

/** `template` with each `${group.key}` set from `config`; a whole-string one loses its quotes. */
export function withSettings(template: string, config: AppConfig): string {
  const settings = config as unknown as Record<string, Record<string, unknown> | undefined>;
  const valueOf = (_match: string, group: string, key: string) => {
    const value = settings[group]?.[key];
    if (typeof value !== 'number')
      throw new Error(`The OpenAPI document names no setting ${group}.${key}.`);
    return String(value);
  };
  return template.replace(/"\$\{(\w+)\.(\w+)\}"/g, valueOf).replace(/\$\{(\w+)\.(\w+)\}/g, valueOf);
}

const CONTENT_TYPES: Readonly<Record<string, string>> = {
  html: 'text/html; charset=utf-8',
  css: 'text/css; charset=utf-8',
  js: 'text/javascript; charset=utf-8',
  json: 'application/json; charset=utf-8',
  map: 'application/json; charset=utf-8',
  svg: 'image/svg+xml',
  webmanifest: 'application/manifest+json',
};

const PAGE_HEADERS = {
  'cache-control': 'no-cache',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
} as const;

// The page runs only its own files: no inline script, no other origin. Its service worker and
// manifest are named too, though `default-src` already allows them.
const HTML_HEADERS = {
  ...PAGE_HEADERS,
  'content-security-policy':
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; " +
    "connect-src 'self'; worker-src 'self'; manifest-src 'self'; object-src 'none'; " +
    "base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
} as const;

const PAGES = {
  [LIST_PAGE]: 'index.html',
  // At the root, so that the page's service worker may control every page of the origin.
  '/service-worker.js': 'build/page/service-worker.js',
};

// The file a URL path names, or undefined when it could leave `public/` or name a hidden file.
function assetPathOf(pathname: string): string | undefined {
  const segments = pathname.split('/').slice(1);
  if (segments.at(-1) === '') segments[segments.length - 1] = 'index.html';
  const decoded: string[] = [];
  for (const segment of segments) {
    let name: string;
    try {
      name = decodeURIComponent(segment);
    } catch {
      return undefined;
    }
    if (name === '' || name.startsWith('.') || /[/\\\0]/.test(name)) return undefined;
    decoded.push(name);
  }
  return decoded.join('/');
}

/** Serves `public/` (GET, HEAD; 405 on a file that exists), and each of `PAGES` with its file. */
export function addStaticRoutes(router: Routes, assets: AssetSource | undefined): void {
  const read = async (path: string) => {
    const bytes = await assets?.read(path);
    return bytes === undefined ? undefined : { path, bytes };
  };
  const find = async (request: IRequest) => {
    const path = assetPathOf(new URL(request.url).pathname);
    if (path === undefined) return undefined;
    // A page is found by its name alone too: `/docs` is `docs.html`.
    const named = /\.[^/]*$/.test(path) ? undefined : await read(`${path}.html`);
    return named ?? (await read(path));
  };
  const notFound = () => new HttpProblem(404, 'No page or file is at this path.');
  const answer = (responses: Responses, file: { path: string; bytes: Uint8Array } | undefined) => {
    if (file === undefined) throw notFound();
    const headers = file.path.endsWith('.html') ? HTML_HEADERS : PAGE_HEADERS;
    const extension = file.path.slice(file.path.lastIndexOf('.') + 1).toLowerCase();
    const type = CONTENT_TYPES[extension] ?? 'application/octet-stream';
    return responses.bytes(file.bytes, headers, type);
  };
  const serve = async (request: IRequest, responses: Responses) =>
    answer(responses, await find(request));
  const refuse = async (request: IRequest) => {
    if ((await find(request)) === undefined) throw notFound();
    GET_OR_HEAD(request);
  };

  for (const [pattern, path] of Object.entries(PAGES)) {
    const page = async (_request: IRequest, responses: Responses) =>
      answer(responses, await read(path));
    router.get(pattern, page).head(pattern, page).all(pattern, GET_OR_HEAD);
  }
  router.get('*', serve).head('*', serve).all('*', refuse);
}
