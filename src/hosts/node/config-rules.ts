import {
  APP_CONFIG_RULES,
  integer,
  MAX_TIMER_MS,
  type Rule,
  type RulesOf,
} from '../../config-rules.ts';
import { LOG_FORMATS, LOG_LEVELS, type NodeConfig } from './node-config.ts';

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

const milliseconds = (min: number) => integer(min, MAX_TIMER_MS);

export const NODE_CONFIG_RULES: RulesOf<NodeConfig> = {
  host: nonEmptyString,
  port: integer(0, 65535),
  log: { level: oneOf(LOG_LEVELS), format: oneOf(LOG_FORMATS) },
  limits: APP_CONFIG_RULES.limits,
  sse: APP_CONFIG_RULES.sse,
  server: {
    headersTimeoutMs: milliseconds(1),
    requestTimeoutMs: milliseconds(1),
    keepAliveTimeoutMs: milliseconds(1),
    maxHeaderBytes: integer(1024),
    shutdownTimeoutMs: milliseconds(0),
  },
};
