import {
  APP_CONFIG_RULES,
  ConfigError,
  DEFAULT_APP_CONFIG,
  type AppConfig,
  type Rule,
} from '../../config.ts';

/** `limits.maxBodyBytes` as the variable that sets it: `LIMITS_MAX_BODY_BYTES`. */
export function varNameOf(group: string, key: string): string {
  return `${group}_${key}`.replace(/[A-Z]/g, (letter) => `_${letter}`).toUpperCase();
}

/**
 * The handler's configuration from the worker's `[vars]`, one variable a key (see `varNameOf`),
 * checked by the rules the Node host applies to its YAML. A variable left out takes the
 * default; a number may come as a JSON number or as a string of digits, since the dashboard
 * and `--var` only set strings. Every problem is reported at once.
 */
export function appConfigFromVars(vars: Readonly<Record<string, unknown>>): AppConfig {
  const problems: string[] = [];
  const config: Record<string, Record<string, unknown>> = {};
  for (const [group, rules] of Object.entries(APP_CONFIG_RULES)) {
    const defaults = DEFAULT_APP_CONFIG[group as keyof AppConfig];
    config[group] = { ...defaults };
    for (const [key, rule] of Object.entries(rules as Record<string, Rule>)) {
      const name = varNameOf(group, key);
      if (!Object.hasOwn(vars, name)) continue;
      const value = numberOf(vars[name]);
      if (rule.accepts(value)) config[group]![key] = value;
      else problems.push(`[vars] ${name} must be ${rule.expected}; it is ${shown(vars[name])}.`);
    }
  }
  if (problems.length > 0) throw new ConfigError(problems);
  return config as unknown as AppConfig;
}

function numberOf(value: unknown): unknown {
  return typeof value === 'string' && /^-?\d+$/.test(value.trim()) ? Number(value) : value;
}

/** A value as the author of `[vars]` wrote it: a string quoted, a number as it is. */
function shown(value: unknown): string {
  return JSON.stringify(value) ?? String(value);
}

export const STORAGE_KINDS = ['memory', 'sqlite'] as const;
export type StorageKind = (typeof STORAGE_KINDS)[number];

/** What the worker and its object read from `[vars]`. */
export interface WorkerConfig {
  readonly app: AppConfig;
  /**
   * `STORAGE`: where the default list is kept. `sqlite`, the default, outlives the object
   * leaving memory; `memory` loses the list whenever the object hibernates or is evicted.
   */
  readonly storage: StorageKind;
}

/** The handler's settings and `STORAGE`, every problem with either reported at once. */
export function workerConfigFromVars(vars: Readonly<Record<string, unknown>>): WorkerConfig {
  const problems: string[] = [];
  let app: AppConfig | undefined;
  try {
    app = appConfigFromVars(vars);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    problems.push(...error.problems);
  }
  const storage = vars.STORAGE ?? 'sqlite';
  if (!STORAGE_KINDS.includes(storage as StorageKind)) {
    problems.push(
      `[vars] STORAGE must be one of ${STORAGE_KINDS.join(', ')}; it is ${shown(vars.STORAGE)}.`,
    );
  }
  if (problems.length > 0) throw new ConfigError(problems);
  return { app: app!, storage: storage as StorageKind };
}
