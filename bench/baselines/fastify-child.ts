import { childMaxItems, serveParent } from '../child-ipc.ts';
import { buildFastify } from './fastify-server.ts';

const { app, list } = buildFastify(childMaxItems());
const url = await app.listen({ host: '127.0.0.1', port: 0 });
serveParent({
  url,
  openStreams: () => 0,
  create: (title, completed) => list.create(title, completed).todo.id,
});
