import { mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { cpus, loadavg, release, totalmem } from 'node:os';
import { fileURLToPath } from 'node:url';

// From dist-bench/bench/ back to the project's bench/results/.
const RESULTS_DIR = fileURLToPath(new URL('../../bench/results/', import.meta.url));
export const PROFILES_DIR = `${RESULTS_DIR}profiles`;

const versionOf = (name: string) =>
  (createRequire(import.meta.url)(`${name}/package.json`) as { version: string }).version;

/** The machine and software a run was made on, for the JSON and the printed header. */
export function describeMachine() {
  return {
    cpuModel: cpus()[0]?.model ?? 'unknown',
    cpus: cpus().length,
    memoryGiB: Math.round(totalmem() / 2 ** 30),
    os: `${process.platform} ${release()} ${process.arch}`,
    loadAverage: loadavg().map((load) => Math.round(load * 100) / 100),
    node: process.versions.node,
    fastify: versionOf('fastify'),
    autocannon: versionOf('autocannon'),
  };
}

/** Writes one run's JSON into bench/results/ and returns its path. */
export function writeResults(startedAt: Date, content: object): string {
  mkdirSync(RESULTS_DIR, { recursive: true });
  const file = `${RESULTS_DIR}bench-${startedAt.toISOString().replace(/[:.]/g, '-')}.json`;
  writeFileSync(file, `${JSON.stringify(content, null, 2)}\n`);
  return file;
}
