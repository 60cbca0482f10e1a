import type { IRequest } from 'itty-router';
import { HttpProblem, methodNotAllowed } from '../http/problem.ts';
import type { Responses } from '../http/responses.ts';
import type { Routes } from '../http/router.ts';

/**
 * The files of `public/`, as the host can read them: `path` is relative, `/`-separated, and
 * has passed `assetPathOf`; a host still keeps every read inside its folder.
 */
export interface AssetSource {
  read(path: string): Promise<Uint8Array | undefined>;
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

// The file a URL path names, or undefined when it could leave `public/` or name a hidden file: a
// decoded segment is refused if empty, if it starts with a dot, or if it holds `/`, `\` or NUL.
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

/** Serves `public/` (GET, HEAD; 405 on a file that exists), and each of `pages` with its file. */
export function addStaticRoutes(
  router: Routes,
  assets: AssetSource | undefined,
  pages: Readonly<Record<string, string>>,
): void {
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
  const refuseMethod = methodNotAllowed('GET, HEAD');

  const answer = (responses: Responses, file: { path: string; bytes: Uint8Array } | undefined) => {
    if (file === undefined) throw notFound();
    const headers = file.path.endsWith('.html') ? HTML_HEADERS : PAGE_HEADERS;
    const extension = file.path.slice(file.path.lastIndexOf('.') + 1).toLowerCase();
    const type = CONTENT_TYPES[extension] ?? 'application/octet-stream';
    return responses.bytes(file.bytes, headers, type);
  };
  const serve = async (request: IRequest, responses: Responses) =>
    answer(responses, await find(request));

  for (const [pattern, path] of Object.entries(pages)) {
    const page = async (_request: IRequest, responses: Responses) =>
      answer(responses, await read(path));
    router.get(pattern, page).head(pattern, page).all(pattern, refuseMethod);
  }

  const refuse = async (request: IRequest) => {
    if ((await find(request)) === undefined) throw notFound();
    refuseMethod(request);
  };

  router.get('*', serve).head('*', serve).all('*', refuse);
}
