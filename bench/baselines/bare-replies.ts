import type { IncomingMessage, ServerResponse } from 'node:http';
import * as rules from './api-rules.ts';
import { parseFields } from './bare-fields.ts';

type Reply = ServerResponse;
type Headers = Record<string, string>;

export const send = (res: Reply, status: number, body: string, headers: Headers) => {
  headers['content-length'] = String(Buffer.byteLength(body));
  res.writeHead(status, headers).end(body);
};
export const json = (res: Reply, status: number, body: string, etag: string, extra?: Headers) =>
  send(res, status, body, {
    'content-type': rules.JSON_TYPE,
    ...rules.API_HEADERS,
    etag,
    ...extra,
  });
export const problem = (res: Reply, status: number, detail: string, extra?: Headers) =>
  send(res, status, rules.problemBody(status, detail), {
    'content-type': rules.PROBLEM_TYPE,
    ...rules.API_HEADERS,
    ...extra,
  });
export const empty = (res: Reply, status: number, headers: Headers) =>
  res.writeHead(status, headers).end();

export const isJson = (req: IncomingMessage, res: Reply) => {
  const type = req.headers['content-type']?.split(';', 1)[0]?.trim().toLowerCase();
  if (type === 'application/json') return true;
  problem(res, 415, 'Send the body as application/json.');
  return false;
};

/** Reads a JSON body of at most MAX_BODY_BYTES, then hands over its checked fields. */
export const withFields = (
  req: IncomingMessage,
  res: Reply,
  pathId: string | undefined,
  use: (title: string, completed: boolean) => void,
) => {
  const tooLarge = () =>
    problem(res, 413, `The body is larger than ${rules.MAX_BODY_BYTES} bytes.`, {
      connection: 'close',
    });
  if (Number(req.headers['content-length']) > rules.MAX_BODY_BYTES) return tooLarge();
  const chunks: Buffer[] = [];
  let size = 0;
  req.on('data', (chunk: Buffer) => {
    size += chunk.length;
    if (size > rules.MAX_BODY_BYTES) {
      req.removeAllListeners('data').removeAllListeners('end').resume();
      tooLarge();
    } else chunks.push(chunk);
  });
  req.on('end', () => {
    let body: unknown;
    try {
      body = JSON.parse(Buffer.concat(chunks).toString());
    } catch {
      return problem(res, 400, 'The body is not valid JSON.');
    }
    const fields = parseFields(body, pathId);
    if (!fields.ok) {
      return send(
        res,
        400,
        rules.problemBody(400, 'The body is not a valid to-do.', fields.errors),
        {
          'content-type': rules.PROBLEM_TYPE,
          ...rules.API_HEADERS,
        },
      );
    }
    use(fields.title, fields.completed);
  });
};
