import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { unstable_getMiniflareWorkerOptions } from 'wrangler';
import { ConfigError, DEFAULT_APP_CONFIG } from '../../src/config.ts';
import { configFromVars, type WorkerConfig } from '../../src/hosts/workerd/vars.ts';

/** A secret as `wrangler secret put VIEW_KEY` sets it, beside the `[vars]`. */
const VIEW_KEY = 'k'.repeat(32);

/** The worker's configuration in `vars`, failing the test if they are wrong. */
function workerConfigFromVars(vars: Record<string, unknown>): WorkerConfig {
  const config = configFromVars({ VIEW_KEY, ...vars });
  if (config instanceof ConfigError) throw config;
  return config;
}

const appConfigFromVars = (vars: Record<string, unknown>) => workerConfigFromVars(vars).app;

/** `wrangler.toml`'s `[vars]`, read the way `wrangler dev` reads them. */
function wranglerTomlVars(): Record<string, unknown> {
  process.env.WRANGLER_SEND_METRICS = 'false';
  const toml = fileURLToPath(new URL('../../wrangler.toml', import.meta.url));
  return unstable_getMiniflareWorkerOptions(toml).workerOptions.bindings as Record<string, unknown>;
}

function problemsOf(vars: Record<string, unknown>): readonly string[] {
  const config = configFromVars({ VIEW_KEY, ...vars });
  return config instanceof ConfigError ? config.problems : [];
}

describe("the worker's [vars]", () => {
  it('gives every key not set its default', () => {
    expect(appConfigFromVars({})).toEqual(DEFAULT_APP_CONFIG);
  });

  it('reads each key from its variable, as a JSON number or a string of digits', () => {
    const config = appConfigFromVars({ LIMITS_MAX_ITEMS: 5, SSE_HEARTBEAT_SECONDS: ' 3 ' });
    expect([config.limits.maxItems, config.sse.heartbeatSeconds]).toEqual([5, 3]);
    expect(config.limits.maxBodyBytes).toBe(DEFAULT_APP_CONFIG.limits.maxBodyBytes);
  });

  it('leaves other bindings alone', () => {
    expect(appConfigFromVars({ ASSETS: {}, TODO_LIST: {} })).toEqual(DEFAULT_APP_CONFIG);
  });

  it('names the variable, what it must be and what it is, for every problem at once', () => {
    expect(
      problemsOf({ LIMITS_MAX_BODY_BYTES: 'lots', SSE_REPLAY_EVENTS: -1, SSE_MAX_CLIENTS: 1.5 }),
    ).toEqual([
      '[vars] LIMITS_MAX_BODY_BYTES must be an integer of at least 1; it is "lots".',
      '[vars] SSE_REPLAY_EVENTS must be an integer of at least 0; it is -1.',
      '[vars] SSE_MAX_CLIENTS must be an integer of at least 1; it is 1.5.',
    ]);
  });

  it('checks the rules the Node host checks its YAML with', () => {
    expect(problemsOf({ SSE_HEARTBEAT_SECONDS: 2 ** 31 })).toEqual([
      '[vars] SSE_HEARTBEAT_SECONDS must be an integer from 1 to 2147483; it is 2147483648.',
    ]);
  });

  it('sets in wrangler.toml the documented defaults, as config/prod.yaml does', () => {
    const vars = wranglerTomlVars();
    expect(vars).toEqual({
      LIMITS_MAX_BODY_BYTES: 16384,
      LIMITS_IDEMPOTENCY_KEY_HOURS: 24,
      LIMITS_MAX_TITLE_LENGTH: 1000,
      LIMITS_MAX_ITEMS: 10000,
      SSE_HEARTBEAT_SECONDS: 15,
      SSE_REPLAY_EVENTS: 1000,
      SSE_MAX_CLIENTS: 10000,
      SSE_MAX_CLIENTS_PER_ADDRESS: 50,
      LIMITS_LISTS_PER_MINUTE: 30,
      STORAGE: 'sqlite',
    });
    expect(appConfigFromVars(vars)).toEqual(DEFAULT_APP_CONFIG);
  });

  it('names the per-client limits’ variables when they are wrong', () => {
    expect(problemsOf({ LIMITS_LISTS_PER_MINUTE: 0, SSE_MAX_CLIENTS_PER_ADDRESS: 'ten' })).toEqual([
      '[vars] LIMITS_LISTS_PER_MINUTE must be an integer of at least 1; it is 0.',
      '[vars] SSE_MAX_CLIENTS_PER_ADDRESS must be an integer of at least 1; it is "ten".',
    ]);
  });

  it.each([[undefined], ['test']])(
    'has wrangler.toml’s rate limit binding count a minute’s LIMITS_LISTS_PER_MINUTE, env %s',
    (env) => {
      process.env.WRANGLER_SEND_METRICS = 'false';
      const toml = fileURLToPath(new URL('../../wrangler.toml', import.meta.url));
      const { bindings, ratelimits } = unstable_getMiniflareWorkerOptions(toml, env).workerOptions;
      const { simple } = (ratelimits as Record<string, { simple: object }>).LIST_CREATIONS!;
      const quota = (bindings as Record<string, unknown>).LIMITS_LISTS_PER_MINUTE;
      expect(simple).toEqual({ limit: quota, period: 60 });
    },
  );
});

describe('STORAGE in [vars]', () => {
  const storageProblems = problemsOf;

  it('keeps the list in SQLite when STORAGE is left out', () => {
    expect(workerConfigFromVars({}).storage).toBe('sqlite');
  });

  it('keeps the list in memory with STORAGE = "memory"', () => {
    expect(workerConfigFromVars({ STORAGE: 'memory' }).storage).toBe('memory');
  });

  it('refuses any other STORAGE, naming the choices', () => {
    expect(storageProblems({ STORAGE: 'disk' })).toEqual([
      '[vars] STORAGE must be one of memory, sqlite; it is "disk".',
    ]);
  });

  it('reports a bad STORAGE with the other problems at once', () => {
    expect(storageProblems({ STORAGE: 1, LIMITS_MAX_ITEMS: 0 })).toHaveLength(2);
  });
});

describe('the secret VIEW_KEY', () => {
  it('is refused when not set, with how to set it', () => {
    expect(problemsOf({ VIEW_KEY: undefined })).toEqual([
      'The secret VIEW_KEY is not set; it needs at least 32 characters, as view-only links are ' +
        'derived under it. Set it with `npx wrangler secret put VIEW_KEY` (locally, in ' +
        '.dev.vars), from `openssl rand -base64 32` for example.',
    ]);
  });

  it('is refused when shorter than 32 characters, without showing it', () => {
    const [problem] = problemsOf({ VIEW_KEY: 'short secret' });
    expect([
      problem?.startsWith('The secret VIEW_KEY has 12;'),
      problem?.includes('short'),
    ]).toEqual([true, false]);
  });
});
