import type { IRequest } from 'itty-router';
import type { Routes } from '../handler.ts';
import type { AppConfig } from '../config.ts';
import type { Responses } from '../http/responses.ts';
import { methodNotAllowed } from '../http/method-not-allowed.ts';
import { openApiDocument } from './document.ts';

export const OPENAPI_PATH = '/api/openapi.json';

/** `GET /api/openapi.json`: the API's description, made once, with the limits in force. */
export function addOpenApiRoute(router: Routes, config: AppConfig) {
  const body = JSON.stringify(openApiDocument(config));
  const describe = (_request: IRequest, responses: Responses) => responses.apiJson(200, body);
  router
    .get(OPENAPI_PATH, describe)
    .head(OPENAPI_PATH, describe)
    .all(OPENAPI_PATH, methodNotAllowed('GET, HEAD'));
}
