import { childMaxItems, serveParent } from '../child-ipc.ts';
import { buildFastify } from './fastify-server.ts';

// With the argument `log`, Fastify's own request log (`logger: true`) to stdout, as ours logs.
const { app, list } = buildFastify(childMaxItems(), process.argv[3] === 'log');
const url = await app.listen({ host: '127.0.0.1', port: 0 });
serveParent({
  url,
  openStreams: () => 0,
  create: (title, completed) => list.create(title, completed).todo.id,
});
