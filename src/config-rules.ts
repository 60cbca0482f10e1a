import type { AppConfig } from './config.ts';

/** What one configuration value must be, said the way an error message needs it. */
export interface Rule {
  readonly expected: string;
  accepts(value: unknown): boolean;
}

/** A rule for every key of the configuration: the compiler keeps the two in step. */
export type RulesOf<T> = { readonly [K in keyof T]: T[K] extends object ? RulesOf<T[K]> : Rule };

/** Why the service did not start; every line names the file or variable and the key. */
export class ConfigError extends Error {
  constructor(readonly problems: readonly string[]) {
    super(problems.join('\n'));
    this.name = 'ConfigError';
  }
}

export function integer(min: number, max = Number.MAX_SAFE_INTEGER): Rule {
  return {
    expected:
      max === Number.MAX_SAFE_INTEGER
        ? `an integer of at least ${min}`
        : `an integer from ${min} to ${max}`,
    accepts: (value) =>
      Number.isInteger(value) && (value as number) >= min && (value as number) <= max,
  };
}

/** Timers hold at most 2^31 - 1 ms; a longer one silently fires after 1 ms. */
export const MAX_TIMER_MS = 2 ** 31 - 1;

/** The handler's settings, checked the same way whichever host reads them. */
export const APP_CONFIG_RULES: RulesOf<AppConfig> = {
  limits: { maxBodyBytes: integer(1), maxTitleLength: integer(1), maxItems: integer(1) },
  sse: {
    heartbeatSeconds: integer(1, Math.floor(MAX_TIMER_MS / 1000)),
    replayEvents: integer(0),
    maxClients: integer(1),
  },
};
