import { createLogger } from '../src/hosts/node/logger.ts';
import { DEFAULT_NODE_CONFIG, type NodeConfig } from '../src/hosts/node/node-config.ts';
import { startNodeServer } from '../src/hosts/node/server.ts';
import { childSettings, serveParent } from './child-ipc.ts';

// The prod profile's settings on loopback, with room for every stream the benchmark opens and
// the list size the run asks of all three servers alike.
const config: NodeConfig = {
  ...DEFAULT_NODE_CONFIG,
  host: '127.0.0.1',
  port: 0,
  limits: { ...DEFAULT_NODE_CONFIG.limits, maxItems: childSettings().maxItems },
  sse: { ...DEFAULT_NODE_CONFIG.sse, maxClients: 10_000 },
};

// Logs as in prod, to stdout, which the parent reads and drops. Built into dist-bench, the
// server looks for the page in dist-bench/public, which is missing: only /api is asked for.
const logger = createLogger({ level: 'info', format: 'json' });
const running = await startNodeServer(config, logger);
const { store } = running.app;
serveParent({
  url: running.url,
  openStreams: () => running.app.events.openCount,
  create: (title, completed) => store.create({ title, completed }).todo.id,
});
