import { Validator } from '@seriousme/openapi-schema-validator';
import { describe, expect, it } from 'vitest';
import { DEFAULT_APP_CONFIG } from '../src/config.ts';
import { openApiDocument } from './support/openapi-check.ts';

describe('the OpenAPI document', () => {
  it('is valid OpenAPI 3.1', async () => {
    const result = await new Validator().validate(
      openApiDocument(DEFAULT_APP_CONFIG) as unknown as Parameters<Validator['validate']>[0],
    );
    expect(result).toEqual({ valid: true });
  });

  it('names every operation, so generated clients get stable method names', () => {
    const { paths } = openApiDocument(DEFAULT_APP_CONFIG);
    const unnamed = Object.entries(paths).flatMap(([path, item]) =>
      Object.entries(item)
        .filter(([key]) => key !== 'options' && key !== 'parameters')
        .filter(([, operation]) => !('operationId' in (operation as object)))
        .map(([method]) => `${method} ${path}`),
    );
    expect(unnamed).toEqual([]);
  });
});
