/** What the handler needs to know, the same on every host. */
export interface AppConfig {
  readonly limits: {
    /** Largest request body accepted, in bytes. */
    readonly maxBodyBytes: number;
    /** Longest title accepted, in Unicode code points. */
    readonly maxTitleLength: number;
    /** Most items the list holds; creating one more answers 507. */
    readonly maxItems: number;
    /** Most named lists one client address makes in a minute; one more answers 429. */
    readonly listsPerMinute: number;
    /** How long a list remembers an item create's `Idempotency-Key`, in hours. */
    readonly idempotencyKeyHours: number;
  };
  readonly sse: {
    readonly heartbeatSeconds: number;
    readonly replayEvents: number;
    readonly maxClients: number;
    /** Most event streams one client address holds open, across every list. */
    readonly maxClientsPerAddress: number;
  };
}

/** The documented defaults (docs/configuration.md); `config/prod.yaml` keeps them. */
export const DEFAULT_APP_CONFIG: AppConfig = {
  limits: {
    maxBodyBytes: 16384,
    maxTitleLength: 1000,
    maxItems: 10000,
    listsPerMinute: 30,
    idempotencyKeyHours: 24,
  },
  sse: { heartbeatSeconds: 15, replayEvents: 1000, maxClients: 10000, maxClientsPerAddress: 50 },
};

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

export function oneOf(choices: readonly string[]): Rule {
  return {
    expected: `one of ${choices.join(', ')}`,
    accepts: (value) => choices.includes(value as string),
  };
}

/** Timers hold at most 2^31 - 1 ms; a longer one silently fires after 1 ms. */
export const MAX_TIMER_MS = 2 ** 31 - 1;

/** The handler's settings, checked the same way whichever host reads them. */
export const APP_CONFIG_RULES: RulesOf<AppConfig> = {
  limits: {
    maxBodyBytes: integer(1),
    maxTitleLength: integer(1),
    maxItems: integer(1),
    listsPerMinute: integer(1),
    idempotencyKeyHours: integer(1),
  },
  sse: {
    heartbeatSeconds: integer(1, Math.floor(MAX_TIMER_MS / 1000)),
    replayEvents: integer(0),
    maxClients: integer(1),
    maxClientsPerAddress: integer(1),
  },
};
