import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { inspect } from 'node:util';
import { parse as parseYaml } from 'yaml';
import { ConfigError, type Rule } from '../../config.ts';
import { DEFAULT_NODE_CONFIG, NODE_CONFIG_RULES, type NodeConfig } from './node-config.ts';

const UNREADABLE: Readonly<Record<string, string>> = {
  ENOENT:
    'does not exist. Each profile (dev, prod) needs its file; TODO_CONFIG_DIR names another folder.',
  EISDIR: 'is a folder, not a file.',
};

/**
 * Reads `<configDir>/<profile>.yaml` over the defaults, then `PORT`, `HOST` and `STORAGE_FILE`
 * from `env`. Every problem found is reported at once, and nothing is returned half-checked.
 */
export function loadConfig(configDir: string, profile: string, env: NodeJS.ProcessEnv): NodeConfig {
  const file = join(configDir, `${profile}.yaml`);
  let document: unknown;
  try {
    document = parseYaml(readFileSync(file, 'utf8'));
  } catch (error) {
    // Only the file's own errors name a system call.
    const { syscall, code, message } = error as NodeJS.ErrnoException;
    const problem = syscall
      ? (UNREADABLE[code!] ?? `cannot be read (${code}).`)
      : `not valid YAML: ${message}`;
    throw new ConfigError([`${file}: ${problem}`]);
  }

  const refused = new Map<string, string>();
  const merged = mergeChecked(DEFAULT_NODE_CONFIG, NODE_CONFIG_RULES, document ?? {}, '', refused);
  const { headersTimeoutMs, requestTimeoutMs } = merged.server;
  const problems = [...refused].map(
    ([key, problem]) => `${file}: ${key ? `key "${key}"` : 'the file'} ${problem}`,
  );
  // A timeout the file leaves out is compared at its default; a refused one is not, as that
  // would quote a value the file does not give.
  const timeoutsAccepted =
    !refused.has('server.headersTimeoutMs') && !refused.has('server.requestTimeoutMs');
  if (timeoutsAccepted && headersTimeoutMs > requestTimeoutMs) {
    problems.push(
      `${file}: key "server.headersTimeoutMs" (${headersTimeoutMs}) must not exceed "server.requestTimeoutMs" (${requestTimeoutMs}).`,
    );
  }

  const { PORT, HOST, STORAGE_FILE } = env;
  if (PORT !== undefined && !(/^\d{1,5}$/.test(PORT) && Number(PORT) <= 65535)) {
    problems.push(
      `environment variable PORT must be a port number from 0 to 65535; it is "${PORT}".`,
    );
  }
  if (HOST?.trim() === '') problems.push('environment variable HOST must not be empty.');
  if (problems.length > 0) throw new ConfigError(problems);
  return {
    ...merged,
    ...(PORT !== undefined && { port: Number(PORT) }),
    ...(HOST !== undefined && { host: HOST }),
    // Set and empty means memory, so a deployment can switch storage off without editing YAML.
    ...(STORAGE_FILE !== undefined && { storage: { file: STORAGE_FILE || null } }),
  };
}

/** A value as the YAML author would recognise it: `.inf` as Infinity, a string quoted. */
function shown(value: unknown): string {
  return typeof value === 'string'
    ? JSON.stringify(value)
    : inspect(value, { depth: 1, breakLength: Infinity });
}

type Rules = { readonly [key: string]: Rule | Rules };
type Settings = { readonly [key: string]: unknown };

/** `value` over `defaults`, each key checked by its rule; what is refused goes into `refused`. */
function mergeChecked<T extends Settings>(
  defaults: T,
  rules: Rules,
  value: unknown,
  prefix: string,
  refused: Map<string, string>,
): T {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    refused.set(prefix, 'must be a mapping of keys to values.');
    return defaults;
  }
  const result: Record<string, unknown> = { ...defaults };
  for (const [key, given] of Object.entries(value)) {
    const path = prefix ? `${prefix}.${key}` : key;
    const rule = Object.hasOwn(rules, key) ? rules[key] : undefined;
    if (rule === undefined) {
      refused.set(
        path,
        `is not a setting; known keys${prefix ? ` under "${prefix}"` : ''}: ${Object.keys(rules).join(', ')}.`,
      );
    } else if (typeof rule.accepts !== 'function') {
      result[key] = mergeChecked(defaults[key] as Settings, rule as Rules, given, path, refused);
    } else if (rule.accepts(given)) {
      result[key] = given;
    } else {
      refused.set(path, `must be ${rule.expected}; it is ${shown(given)}.`);
    }
  }
  return result as T;
}
