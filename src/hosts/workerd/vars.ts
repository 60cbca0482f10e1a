import {
  APP_CONFIG_RULES,
  ConfigError,
  DEFAULT_APP_CONFIG,
  type AppConfig,
  type Rule,
} from '../../config.ts';

const STORAGE_KINDS = ['memory', 'sqlite'] as const;

/** What the worker and its objects read from `[vars]`. */
export interface WorkerConfig {
  readonly app: AppConfig;
  /**
   * `STORAGE`: where the default list is kept. `sqlite`, the default, outlives the object
   * leaving memory; `memory` loses the list whenever the object hibernates or is evicted.
   */
  readonly storage: (typeof STORAGE_KINDS)[number];
}

/** `limits.maxBodyBytes` as the variable that sets it: `LIMITS_MAX_BODY_BYTES`. */
export function varNameOf(group: string, key: string): string {
  return `${group}_${key}`.replace(/[A-Z]/g, (letter) => `_${letter}`).toUpperCase();
}

/**
 * The configuration in `wrangler.toml`'s `[vars]`, or the `ConfigError` that lists all that is
 * wrong, by the rules the Node host applies to its YAML. A number may come as a string of
 * digits: the dashboard and `--var` only set strings.
 */
export function configFromVars(
  vars: Readonly<Record<string, unknown>>,
): WorkerConfig | ConfigError {
  const problems: string[] = [];
  const config: Record<string, Record<string, unknown>> = {};
  for (const [group, rules] of Object.entries(APP_CONFIG_RULES)) {
    config[group] = { ...DEFAULT_APP_CONFIG[group as keyof AppConfig] };
    for (const [key, rule] of Object.entries(rules as Record<string, Rule>)) {
      const name = varNameOf(group, key);
      if (!Object.hasOwn(vars, name)) continue;
      const given = vars[name];
      const value =
        typeof given === 'string' && /^-?\d+$/.test(given.trim()) ? Number(given) : given;
      if (rule.accepts(value)) config[group]![key] = value;
      else problems.push(`[vars] ${name} must be ${rule.expected}; it is ${shown(given)}.`);
    }
  }
  const storage = vars.STORAGE ?? 'sqlite';
  if (!STORAGE_KINDS.includes(storage as WorkerConfig['storage'])) {
    problems.push(
      `[vars] STORAGE must be one of ${STORAGE_KINDS.join(', ')}; it is ${shown(vars.STORAGE)}.`,
    );
  }
  if (problems.length > 0) return new ConfigError(problems);
  return { app: config as unknown as AppConfig, storage: storage as WorkerConfig['storage'] };
}

/** A value as the author of `[vars]` wrote it: a string quoted, a number as it is. */
function shown(value: unknown): string {
  return JSON.stringify(value) ?? String(value);
}
