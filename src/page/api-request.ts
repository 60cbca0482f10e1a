const UNREACHABLE = 'The service could not be reached. Check the connection and try again.';

/**
 * A request the service refused or could not answer; `detail` is fit to show the user.
 * `transient` when the service was not reached or failed (5xx): trying again later may work,
 * unlike a refused title. `status` is the service's answer, absent when there was none.
 */
export class ApiError extends Error {
  constructor(
    readonly detail: string,
    readonly transient: boolean,
    readonly status?: number,
  ) {
    super(detail);
    this.name = 'ApiError';
  }
}

/** Whether the service answered `error` with 404: on a list's own route, the list is gone. */
export function isNotFound(error: unknown): boolean {
  return error instanceof ApiError && error.status === 404;
}

/**
 * Sends one request to the API, with `headers` beside the body's; an answer that is not 2xx
 * becomes an `ApiError`.
 */
export async function send(
  method: string,
  path: string,
  body?: object,
  headers: Readonly<Record<string, string>> = {},
): Promise<Response> {
  let response: Response;
  try {
    response = await fetch(path, {
      method,
      headers: { ...(body && { 'content-type': 'application/json' }), ...headers },
      ...(body && { body: JSON.stringify(body) }),
    });
  } catch {
    throw new ApiError(UNREACHABLE, true);
  }
  if (!response.ok) {
    throw new ApiError(await detailOf(response), response.status >= 500, response.status);
  }
  return response;
}

/**
 * Reads an answer that is not needed (the event stream tells the change): reading it lets the
 * request finish instead of being cut off by the next navigation.
 */
export async function discardBody(response: Response): Promise<void> {
  await response.arrayBuffer().catch(() => {});
}

/** The version an ETag names: the id of an event in the list's sequence. */
export function versionOf(response: Response): string {
  return (response.headers.get('etag') ?? '').replace(/^(W\/)?"(.*)"$/, '$2');
}

async function detailOf(response: Response): Promise<string> {
  const fallback = `The service answered ${response.status} ${response.statusText}.`.trim();
  try {
    const problem: unknown = await response.json();
    const detail = (problem as { detail?: unknown } | null)?.detail;
    return typeof detail === 'string' && detail !== '' ? detail : fallback;
  } catch {
    return fallback;
  }
}
