/** What one configuration value must be, said the way an error message needs it. */
export interface Rule<T = unknown> {
  readonly expected: string;
  accepts(value: unknown): value is T;
}

/** The settings a tree of rules checks, each of the type its rule accepts. */
export type ConfigOf<Rules> = {
  readonly [K in keyof Rules]: Rules[K] extends Rule<infer T> ? T : ConfigOf<Rules[K]>;
};

/** Why the service did not start; every line names the file or variable and the key. */
export class ConfigError extends Error {
  constructor(readonly problems: readonly string[]) {
    super(problems.join('\n'));
    this.name = 'ConfigError';
  }
}

export function integer(min: number, max = Number.MAX_SAFE_INTEGER): Rule<number> {
  return {
    expected:
      max === Number.MAX_SAFE_INTEGER
        ? `an integer of at least ${min}`
        : `an integer from ${min} to ${max}`,
    accepts: (value): value is number =>
      Number.isInteger(value) && (value as number) >= min && (value as number) <= max,
  };
}

export function oneOf<const C extends readonly string[]>(choices: C): Rule<C[number]> {
  return {
    expected: `one of ${choices.join(', ')}`,
    accepts: (value): value is C[number] => choices.includes(value as string),
  };
}

/** Timers hold at most 2^31 - 1 ms; a longer one silently fires after 1 ms. */
export const MAX_TIMER_MS = 2 ** 31 - 1;

/** The handler's settings, checked the same way whichever host reads them (docs/configuration.md). */
export const APP_CONFIG_RULES = {
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

/** What the handler needs to know, the same on every host. */
export type AppConfig = ConfigOf<typeof APP_CONFIG_RULES>;

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
