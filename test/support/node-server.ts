import { afterEach, beforeEach } from 'vitest';
import { pino } from 'pino';
import type { Logger } from '../../src/hosts/node/logger.ts';
import { DEFAULT_NODE_CONFIG, type NodeConfig } from '../../src/hosts/node/node-config.ts';
import { startNodeServer, type RunningServer } from '../../src/hosts/node/server.ts';
import { DEFAULT_LIST_PATHS } from '../../src/model/resources.ts';
import type { ListStores } from '../../src/storage/kept-lists.ts';
import { TEST_CLIENT_LIMITS, type TestService } from './hosts.ts';

// The Node host started inside the test's own process, to hand it parts and read its state;
// ServiceProcess (service-process.ts) is the built entry point as a child, for what only a real
// process shows: its output, its signals, its exit.

export const SILENT: Logger = pino({ level: 'silent' });

/** The settings a test changes; everything else keeps its default. */
export interface NodeServerOptions {
  readonly server?: Partial<NodeConfig['server']>;
  readonly limits?: Partial<NodeConfig['limits']>;
  readonly sse?: Partial<NodeConfig['sse']>;
}

/**
 * The default configuration on a free loopback port, with `options` over it, and each client
 * allowed as much as the test hosts allow one.
 */
export function nodeConfig(options: NodeServerOptions = {}): NodeConfig {
  const { listsPerMinute, maxClientsPerAddress } = TEST_CLIENT_LIMITS;
  return {
    ...DEFAULT_NODE_CONFIG,
    host: '127.0.0.1',
    port: 0,
    limits: { ...DEFAULT_NODE_CONFIG.limits, listsPerMinute, ...options.limits },
    sse: { ...DEFAULT_NODE_CONFIG.sse, maxClientsPerAddress, ...options.sse },
    server: { ...DEFAULT_NODE_CONFIG.server, ...options.server },
  };
}

/** What a test hands the host instead of its own: a fresh one for each test. */
export interface NodeServerParts {
  readonly stores?: () => ListStores;
  readonly logger?: () => Logger;
}

/** A Node host of its own for every test of the enclosing `describe`, closed after it. */
export function useNodeServer(
  options: NodeServerOptions = {},
  parts: NodeServerParts = {},
): () => RunningServer {
  let running: RunningServer | undefined;
  beforeEach(async () => {
    const logger = parts.logger?.() ?? SILENT;
    running = await startNodeServer(nodeConfig(options), logger, parts.stores?.());
  });
  afterEach(() => running?.close());
  return () => running!;
}

/** The service listening at `url`, seen as the default list's routes, fetched over HTTP. */
export function serviceAt(url: string): Pick<TestService, 'fetch' | 'paths'> {
  return { paths: DEFAULT_LIST_PATHS, fetch: (path, init) => fetch(new URL(path, url), init) };
}
