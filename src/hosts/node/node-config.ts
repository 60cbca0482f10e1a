import {
  APP_CONFIG_RULES,
  DEFAULT_APP_CONFIG,
  integer,
  MAX_TIMER_MS,
  oneOf,
  type ConfigOf,
  type Rule,
} from '../../config.ts';
import { DEFAULT_MAX_LISTS } from '../../app.ts';

const nonEmptyString: Rule<string> = {
  expected: 'a non-empty string',
  accepts: (value): value is string => typeof value === 'string' && value.trim() !== '',
};

// Never read unless named: a client could set it.
const headerOrNothing: Rule<string | null> = {
  expected: 'a header name, such as X-Forwarded-For, or null to count the connection’s address',
  accepts: (value): value is string | null =>
    value === null || (typeof value === 'string' && /^[\w!#$%&'*+.^`|~-]+$/.test(value)),
};

const fileOrNothing: Rule<string | null> = {
  expected: 'a file path, or null to keep the lists in memory only',
  accepts: (value): value is string | null => value === null || nonEmptyString.accepts(value),
};

const milliseconds = (min: number) => integer(min, MAX_TIMER_MS);

/** The handler's settings and the Node host's, each key as docs/configuration.md describes it. */
export const NODE_CONFIG_RULES = {
  host: nonEmptyString,
  port: integer(0, 65535),
  log: {
    level: oneOf(['debug', 'info', 'warn', 'error', 'silent']),
    format: oneOf(['pretty', 'json']),
  },
  storage: { file: fileOrNothing },
  limits: { ...APP_CONFIG_RULES.limits, maxLists: integer(1) },
  sse: APP_CONFIG_RULES.sse,
  server: {
    headersTimeoutMs: milliseconds(1),
    requestTimeoutMs: milliseconds(1),
    keepAliveTimeoutMs: milliseconds(1),
    maxHeaderBytes: integer(1024),
    drainDelayMs: milliseconds(0),
    shutdownTimeoutMs: milliseconds(0),
    clientAddressHeader: headerOrNothing,
  },
};

export type NodeConfig = ConfigOf<typeof NODE_CONFIG_RULES>;

export const DEFAULT_NODE_CONFIG: NodeConfig = {
  ...DEFAULT_APP_CONFIG,
  limits: { ...DEFAULT_APP_CONFIG.limits, maxLists: DEFAULT_MAX_LISTS },
  host: '0.0.0.0',
  port: 8080,
  log: { level: 'info', format: 'json' },
  storage: { file: null },
  server: {
    headersTimeoutMs: 10000,
    requestTimeoutMs: 30000,
    keepAliveTimeoutMs: 5000,
    maxHeaderBytes: 16384,
    drainDelayMs: 0,
    shutdownTimeoutMs: 10000,
    clientAddressHeader: null,
  },
};
