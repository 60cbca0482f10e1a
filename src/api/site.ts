import type { IRequest } from 'itty-router';
import type { AppConfig } from '../config.ts';
import { HttpProblem, methodNotAllowed } from '../http/problem.ts';
import type { Responses } from '../http/responses.ts';
import type { Routes } from '../http/router.ts';
import { countCodePoints } from './fields.ts';
import type { AssetSource } from './static-files.ts';

const MAX_NAME_LENGTH = 100;
const HEALTHY = JSON.stringify({ status: 'ok' });
/** Where `npm run build` writes the OpenAPI document, from docs/openapi.yaml, in `public/`. */
export const OPENAPI_FILE = 'build/openapi.json';

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
    const length = countCodePoints(name);
    if (length > MAX_NAME_LENGTH) {
      throw new HttpProblem(
        400,
        `name must be at most ${MAX_NAME_LENGTH} characters long; it has ${length}.`,
      );
    }
    return responses.text(200, `Hello, ${name || 'world'}!`);
  };

  const health = (_request: IRequest, responses: Responses) => {
    if (isDraining()) {
      throw new HttpProblem(
        503,
        'The service is shutting down; send requests to another instance.',
      );
    }
    return responses.json(200, HEALTHY);
  };

  const readDocument = async () => {
    if (assets === undefined)
      throw new Error('This host serves no files, the OpenAPI document among them.');
    const bytes = await assets.read(OPENAPI_FILE);
    if (bytes === undefined)
      throw new Error(`public/${OPENAPI_FILE} is missing: run npm run build.`);
    return withSettings(new TextDecoder().decode(bytes), config);
  };
  let document: Promise<string> | undefined;
  const describe = async (_request: IRequest, responses: Responses) => {
    // Read again after a failure.
    document ??= readDocument().catch((error: unknown) => {
      document = undefined;
      throw error;
    });
    return responses.apiJson(200, await document);
  };

  for (const [path, answer] of [
    ['/hello', hello],
    ['/healthz', health],
    ['/api/openapi.json', describe],
  ] as const) {
    router.get(path, answer).head(path, answer).all(path, methodNotAllowed('GET, HEAD'));
  }
}

/**
 * The OpenAPI document `template` with each `${group.key}` in it replaced by that setting of
 * `config`: a placeholder that is a whole JSON string becomes the number itself.
 */
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
