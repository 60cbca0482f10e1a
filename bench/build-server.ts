import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { freePort } from '../test/support/free-port.ts';
import { spawnServer, type ServerChild, type StartOptions } from './children.ts';

const SEEDS_AT_ONCE = 32;

const clockTicksPerSecond = Number(spawnSync('getconf', ['CLK_TCK']).stdout?.toString()) || 100;

/** A process's CPU time so far in ms, from /proc: a build answers no questions of the harness. */
function cpuMs(pid: number) {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // The command name, in parentheses, may itself hold ") ".
  const fields = stat.slice(stat.lastIndexOf(') ') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / clockTicksPerSecond;
}

/**
 * The build in `dist` (the dist/ folder of a checkout, after `npm run build`) run as a user
 * runs it, `node dist/hosts/node/main.js`, with the prod profile but for `limits.maxItems`.
 * Its items are made over HTTP; it has no memory, lists or commits to ask for.
 */
export async function startBuild(
  kind: 'A' | 'B',
  dist: string,
  { maxItems, core }: StartOptions,
): Promise<ServerChild> {
  const configDir = mkdtempSync(join(tmpdir(), 'bench-build-'));
  writeFileSync(join(configDir, 'prod.yaml'), `limits:\n  maxItems: ${maxItems}\n`);
  const port = await freePort();
  const env = { ...process.env, TODO_CONFIG_DIR: configDir, PORT: `${port}`, HOST: '127.0.0.1' };
  const child = spawnServer([join(resolve(dist), 'hosts/node/main.js')], core, env);
  const url = `http://127.0.0.1:${port}`;
  // Not /healthz: builds from before it had none, and every build answers the list.
  const up = async () => (await fetch(`${url}/api/todos`).catch(() => undefined))?.ok;
  try {
    for (let waited = 0; !(await up()); waited += 100) {
      if (waited > 10_000 || child.exitCode !== null) throw new Error(`${kind} did not start.`);
      await sleep(100);
    }
  } finally {
    rmSync(configDir, { recursive: true });
  }
  const notHere = () =>
    Promise.reject(new Error(`${kind} is a build: only throughput runs on it.`));
  const create = async (n: number) => {
    const body = JSON.stringify({ title: `Water the plants, batch ${n}`, completed: n % 3 === 0 });
    const headers = { 'content-type': 'application/json' };
    const answer = await fetch(`${url}/api/todos`, { method: 'POST', headers, body });
    return ((await answer.json()) as { id: string }).id;
  };
  return {
    kind,
    url,
    memory: notHere,
    seedLists: notHere,
    commits: async () => null,
    cpu: async () => cpuMs(child.pid!),
    // Many at a time: one by one, DELETE's pool of ids took longer than the harness waits.
    async seed(count) {
      const ids = new Array<string>(count);
      let next = 0;
      const makeTheRest = async () => {
        for (let n = next++; n < count; n = next++) ids[n] = await create(n);
      };
      await Promise.all(Array.from({ length: Math.min(count, SEEDS_AT_ONCE) }, makeTheRest));
      return ids;
    },
    // Not a graceful stop: an older build may hang on exit once its log's reader is gone.
    stop: async () => void child.kill('SIGKILL'),
  };
}
