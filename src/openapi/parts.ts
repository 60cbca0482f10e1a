/** The pieces every path of the document is made of. */

export const ref = (kind: string, name: string) => ({ $ref: `#/components/${kind}/${name}` });

/** A problem+json answer; every error the API gives has this body. */
export function problem(description: string, headers?: Record<string, unknown>) {
  return {
    description,
    ...(headers && { headers }),
    content: { 'application/problem+json': { schema: ref('schemas', 'Problem') } },
  };
}

export function json(description: string, schema: unknown, headers?: Record<string, unknown>) {
  return {
    description,
    ...(headers && { headers }),
    content: { 'application/json': { schema } },
  };
}

export const FAILED = problem(
  'An unexpected failure; the detail is generic and the log has the rest.',
);
export const ETAG = { ETag: ref('headers', 'ETag') };
export const NOT_MODIFIED = {
  description: 'The ETag matches `If-None-Match`: no body.',
  headers: ETAG,
};

export const body = (schema: string, example: unknown, required = true) => ({
  required,
  content: { 'application/json': { schema: ref('schemas', schema), example } },
});

export function preflight(methods: string, headers: string) {
  return {
    summary: 'CORS preflight',
    description: `Answers any origin: methods \`${methods}\`, headers \`${headers}\`, cached 86400 s.`,
    responses: { '204': { description: 'The preflight answer, no body.' } },
  };
}

/** The answers every body-reading operation may give, in the order they are checked. */
export function bodyRefusals(maxBodyBytes: number) {
  return {
    '415': problem('The body is not sent as `Content-Type: application/json`.'),
    '413': problem(
      `The body is larger than ${maxBodyBytes} bytes (\`limits.maxBodyBytes\`); ` +
        'decided without reading more than that.',
    ),
    '400': problem(
      'The body is not JSON, not an object, or fails validation; `errors` has one entry per problem.',
    ),
  };
}
