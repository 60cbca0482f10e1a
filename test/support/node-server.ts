import { afterEach, beforeEach, expect } from 'vitest';
import { pino } from 'pino';
import type { Logger } from '../../src/hosts/node/logger.ts';
import { DEFAULT_NODE_CONFIG, type NodeConfig } from '../../src/hosts/node/node-config.ts';
import { startNodeServer, type RunningServer } from '../../src/hosts/node/server.ts';
import type { ListStores } from '../../src/lists/list-stores.ts';
import type { TodoStore } from '../../src/todos/store.ts';
import type { TodoJson } from './api.ts';

export const SILENT: Logger = pino({ level: 'silent' });

/** The settings a test changes; everything else keeps its default. */
export interface NodeServerOptions {
  readonly server?: Partial<NodeConfig['server']>;
  readonly limits?: Partial<NodeConfig['limits']>;
  readonly sse?: Partial<NodeConfig['sse']>;
}

/** The default configuration on a free loopback port, with `options` over it. */
export function nodeConfig(options: NodeServerOptions = {}): NodeConfig {
  return {
    ...DEFAULT_NODE_CONFIG,
    host: '127.0.0.1',
    port: 0,
    limits: { ...DEFAULT_NODE_CONFIG.limits, ...options.limits },
    sse: { ...DEFAULT_NODE_CONFIG.sse, ...options.sse },
    server: { ...DEFAULT_NODE_CONFIG.server, ...options.server },
  };
}

/** What a test hands the host instead of its own: a fresh one for each test. */
export interface NodeServerParts {
  readonly store?: () => TodoStore;
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
    running = await startNodeServer(nodeConfig(options), logger, {
      store: parts.store?.(),
      stores: parts.stores?.(),
    });
  });
  afterEach(() => running?.close());
  return () => running!;
}

export interface ListWithEtag {
  readonly etag: string;
  readonly todos: TodoJson[];
}

/** The list and its ETag, read by a fresh, well-behaved request that must succeed. */
export async function listState(url: string): Promise<ListWithEtag> {
  const response = await fetch(`${url}/api/todos`);
  expect(response.status).toBe(200);
  return { etag: response.headers.get('etag') ?? '', todos: (await response.json()) as TodoJson[] };
}
