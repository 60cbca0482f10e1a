import { LOG_FORMATS, LOG_LEVELS, type NodeConfig } from './node-config.ts';

/** What one configuration value must be, said the way an error message needs it. */
export interface Rule {
  readonly expected: string;
  accepts(value: unknown): boolean;
}

/** A rule for every key of the configuration: the compiler keeps the two in step. */
export type RulesOf<T> = { readonly [K in keyof T]: T[K] extends object ? RulesOf<T[K]> : Rule };

function integer(min: number, max = Number.MAX_SAFE_INTEGER): Rule {
  return {
    expected:
      max === Number.MAX_SAFE_INTEGER
        ? `an integer of at least ${min}`
        : `an integer from ${min} to ${max}`,
    accepts: (value) =>
      Number.isInteger(value) && (value as number) >= min && (value as number) <= max,
  };
}

function oneOf(choices: readonly string[]): Rule {
  return {
    expected: `one of ${choices.join(', ')}`,
    accepts: (value) => choices.includes(value as string),
  };
}

const nonEmptyString: Rule = {
  expected: 'a non-empty string',
  accepts: (value) => typeof value === 'string' && value.trim() !== '',
};

/** Node's timers hold at most 2^31 - 1 ms; a longer one silently fires after 1 ms. */
const MAX_TIMER_MS = 2 ** 31 - 1;
const milliseconds = (min: number) => integer(min, MAX_TIMER_MS);

export const NODE_CONFIG_RULES: RulesOf<NodeConfig> = {
  host: nonEmptyString,
  port: integer(0, 65535),
  log: { level: oneOf(LOG_LEVELS), format: oneOf(LOG_FORMATS) },
  limits: { maxBodyBytes: integer(1), maxTitleLength: integer(1), maxItems: integer(1) },
  sse: {
    heartbeatSeconds: integer(1, Math.floor(MAX_TIMER_MS / 1000)),
    replayEvents: integer(0),
    maxClients: integer(1),
  },
  server: {
    headersTimeoutMs: milliseconds(1),
    requestTimeoutMs: milliseconds(1),
    keepAliveTimeoutMs: milliseconds(1),
    maxHeaderBytes: integer(1024),
    shutdownTimeoutMs: milliseconds(0),
  },
};
