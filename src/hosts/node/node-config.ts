import {
  APP_CONFIG_RULES,
  DEFAULT_APP_CONFIG,
  integer,
  MAX_TIMER_MS,
  oneOf,
  type AppConfig,
  type Rule,
  type RulesOf,
} from '../../config.ts';
import { DEFAULT_MAX_LISTS } from '../../app.ts';

const LOG_LEVELS = ['debug', 'info', 'warn', 'error', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];
const LOG_FORMATS = ['pretty', 'json'] as const;
export type LogFormat = (typeof LOG_FORMATS)[number];

/** The handler's configuration, plus the Node host's: lists, listening, logs, timeouts. */
export interface NodeConfig extends AppConfig {
  readonly limits: AppConfig['limits'] & {
    /** Most named lists the process holds; creating one more answers 507. */
    readonly maxLists: number;
  };
  readonly host: string;
  readonly port: number;
  readonly log: { readonly level: LogLevel; readonly format: LogFormat };
  readonly storage: {
    /** The SQLite file that keeps the lists across restarts; null keeps them in memory only. */
    readonly file: string | null;
  };
  readonly server: {
    /** Time a client has to send all request headers (slow-header attacks). */
    readonly headersTimeoutMs: number;
    /** Time a client has to send the whole request, body included. */
    readonly requestTimeoutMs: number;
    /** How long an idle keep-alive connection is kept open. */
    readonly keepAliveTimeoutMs: number;
    /** 431 once the URL, header names and values reach this many bytes (Node's count). */
    readonly maxHeaderBytes: number;
    /** How long, on SIGTERM or SIGINT, the service serves on while `/healthz` answers 503. */
    readonly drainDelayMs: number;
    /** How long shutdown waits for requests in flight before closing their connections. */
    readonly shutdownTimeoutMs: number;
    /**
     * The header a proxy in front sets to the client's address, for the per-client limits;
     * null: the connection's own address. Never read unless named: a client could set it.
     */
    readonly clientAddressHeader: string | null;
  };
}

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

const nonEmptyString: Rule = {
  expected: 'a non-empty string',
  accepts: (value) => typeof value === 'string' && value.trim() !== '',
};

const headerOrNothing: Rule = {
  expected: 'a header name, such as X-Forwarded-For, or null to count the connection’s address',
  accepts: (value) =>
    value === null || (typeof value === 'string' && /^[\w!#$%&'*+.^`|~-]+$/.test(value)),
};

const milliseconds = (min: number) => integer(min, MAX_TIMER_MS);

const fileOrNothing: Rule = {
  expected: 'a file path, or null to keep the lists in memory only',
  accepts: (value) => value === null || nonEmptyString.accepts(value),
};

export const NODE_CONFIG_RULES: RulesOf<NodeConfig> = {
  host: nonEmptyString,
  port: integer(0, 65535),
  log: { level: oneOf(LOG_LEVELS), format: oneOf(LOG_FORMATS) },
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

/**
 * The client's address: what the proxy named in `clientAddressHeader` added last (after any the
 * client sent itself), else the connection's.
 */
export function clientAddressIn(
  { clientAddressHeader: header }: NodeConfig['server'],
  connectionOf: (request: Request) => string | undefined,
): (request: Request) => string | undefined {
  return (request) =>
    (header && request.headers.get(header)?.split(',').at(-1)?.trim()) || connectionOf(request);
}
