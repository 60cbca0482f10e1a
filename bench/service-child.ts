import { childMaxItems, serveParent } from './child-ipc.ts';
import { startNodeHost } from './node-host.ts';

serveParent(await startNodeHost(childMaxItems()));
