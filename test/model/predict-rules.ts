import type { WireRequest } from './wire.ts';

/** A problem answer: its status, the field pointers of a refused body, `Allow` of a 405. */
export interface ExpectedProblem {
  readonly kind: 'problem';
  readonly status: number;
  /** For a body that parsed but broke the rules: one JSON Pointer per problem. */
  readonly pointers?: readonly string[];
  readonly allow?: string;
}

export function problem(status: number): ExpectedProblem {
  return { kind: 'problem', status };
}

export function mediaTypeProblem(request: WireRequest): ExpectedProblem | undefined {
  const essence = request.headers['content-type']?.split(';')[0]?.trim().toLowerCase();
  return essence === 'application/json' ? undefined : problem(415);
}

export function sizeProblem(request: WireRequest, maxBodyBytes: number) {
  return (request.body?.length ?? 0) > maxBodyBytes ? problem(413) : undefined;
}

/** RFC 9110: If-Match compares strongly, so a weak tag never matches. */
export function preconditionProblem(
  request: WireRequest,
  current: string | undefined,
): ExpectedProblem | undefined {
  const header = request.headers['if-match'];
  if (header === undefined || header.trim() === '*') return undefined;
  return header.split(',').some((tag) => tag.trim() === current) ? undefined : problem(412);
}

/** RFC 9110: If-None-Match compares weakly. */
export function matchesWeakly(header: string | undefined, etag: string | undefined): boolean {
  if (header === undefined) return false;
  if (header.trim() === '*') return true;
  return header.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag);
}

/** The body as a JSON object, or the 400 of one that is not UTF-8, not JSON, or no object. */
export function bodyObject(
  request: WireRequest,
): { readonly kind: 'object'; readonly value: Record<string, unknown> } | ExpectedProblem {
  let value: unknown;
  try {
    value = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(request.body));
  } catch {
    return problem(400);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return problem(400);
  return { kind: 'object', value: value as Record<string, unknown> };
}

/** The pointers of the keys `allowed` refuses, in the order of the body. */
export function unknownKeyPointers(
  body: Record<string, unknown>,
  allowed: (key: string) => boolean,
): string[] {
  return Object.keys(body)
    .filter((key) => !allowed(key))
    .map((key) => `/${key.replaceAll('~', '~0').replaceAll('/', '~1')}`);
}

/** Whether a title is longer than the limit, which counts code points. */
export function tooLong(title: string, maxTitleLength: number): boolean {
  return [...title].length > maxTitleLength;
}
