import type { AddressInfo } from 'node:net';
import { childMaxItems, serveParent } from '../child-ipc.ts';
import { createBareServer } from './bare-server.ts';

const { server, list, openStreams } = createBareServer(childMaxItems());
server.listen(0, '127.0.0.1', () => {
  const { port } = server.address() as AddressInfo;
  serveParent({
    url: `http://127.0.0.1:${port}`,
    openStreams,
    create: (title, completed) => list.create(title, completed).todo.id,
  });
});
