import { randomUUID } from 'node:crypto';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serveParent } from './child-ipc.ts';

// The ceiling: the same two routes on bare node:http, with no router and no web streams.
const SSE_HEADERS = {
  'content-type': 'text/event-stream',
  'cache-control': 'no-cache',
  'x-accel-buffering': 'no',
  'access-control-allow-origin': '*',
  'access-control-expose-headers': 'Location, ETag',
};
const runId = randomUUID().slice(0, 8);
const items: { id: string; title: string; completed: boolean }[] = [];
const streams = new Set<ServerResponse>();

const server = createServer((req, res) => {
  if (req.method === 'GET' && req.url === '/api/sse') {
    res.writeHead(200, SSE_HEADERS);
    const snapshot = `id: ${runId}.${items.length}\nevent: snapshot\ndata: ${JSON.stringify(items)}\n\n`;
    res.write(`retry: 3000\n\n${snapshot}`);
    streams.add(res);
    res.on('close', () => streams.delete(res));
  } else if (req.method === 'POST' && req.url === '/api/todos') {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const { title } = JSON.parse(Buffer.concat(chunks).toString()) as { title: string };
      const item = { id: randomUUID(), title, completed: false };
      items.push(item);
      const data = JSON.stringify(item);
      const frame = Buffer.from(`id: ${runId}.${items.length}\nevent: created\ndata: ${data}\n\n`);
      for (const stream of streams) stream.write(frame);
      res.writeHead(201, { 'content-type': 'application/json', location: `/api/todos/${item.id}` });
      res.end(data);
    });
  } else {
    res.writeHead(404).end();
  }
});

server.listen(0, '127.0.0.1', () => {
  const { port } = server.address() as AddressInfo;
  serveParent(`http://127.0.0.1:${port}`, () => streams.size);
});
