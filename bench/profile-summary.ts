import { readdirSync, readFileSync } from 'node:fs';
import { basename, join, relative } from 'node:path';
import { format, formatTable } from './format.ts';

interface ProfileNode {
  readonly id: number;
  readonly callFrame: {
    readonly functionName: string;
    readonly url: string;
    readonly lineNumber: number;
  };
}

interface CpuProfile {
  readonly nodes: readonly ProfileNode[];
  readonly samples: readonly number[];
  readonly timeDeltas: readonly number[];
}

const where = ({ functionName, url, lineNumber }: ProfileNode['callFrame']) => {
  const file =
    url === ''
      ? ''
      : ` ${url.replace(/^.*\/node_modules\//, '').replace(/^file:\/\/.*\/(dist-bench|dist)\//, '')}:${lineNumber + 1}`;
  return `${functionName || '(anonymous)'}${file}`;
};

/** The functions with the most self time over all of `files`, as a table. */
function topSelfTime(files: readonly string[], count = 10): string {
  const selfMs = new Map<string, number>();
  let totalMs = 0;
  for (const file of files) {
    const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
    const names = new Map(profile.nodes.map((node) => [node.id, where(node.callFrame)]));
    // A sample's time is the gap to the next one.
    for (let index = 0; index < profile.samples.length - 1; index += 1) {
      const name = names.get(profile.samples[index]!) ?? '?';
      const ms = profile.timeDeltas[index + 1]! / 1000;
      if (name.startsWith('(idle)')) continue;
      selfMs.set(name, (selfMs.get(name) ?? 0) + ms);
      totalMs += ms;
    }
  }
  const top = [...selfMs].sort((a, b) => b[1] - a[1]).slice(0, count);
  return formatTable(
    [
      `self time, ${files.map((file) => basename(file, '.cpuprofile')).join(' + ')}`,
      'ms',
      '% of busy',
    ],
    top.map(([name, ms]) => [name, format.fixed(0)(ms), format.fixed(1)((100 * ms) / totalMs)]),
  );
}

/**
 * Who a function belongs to, by the file it is in: Node and its HTTP server, the adapter, the
 * router, the log, each part of our handler, our host. Self time is summed per part.
 */
const PARTS: readonly [part: string, test: RegExp][] = [
  ['GC', /^\(garbage collector\)/],
  ['the adapter (@whatwg-node)', /@whatwg-node\//],
  ['itty-router', /itty-router\//],
  ['the log (pino)', /(pino|sonic-boom|thread-stream|quick-format|fast-redact|on-exit)[^/]*\//],
  ['handler: body read', /\/http\/(json-body|bytes)\.js/],
  ['handler: validation', /\/todos\/validate\.js|code-points\.js/],
  ['handler: store and change record', /\/todos\/(store|sqlite-store)\.js/],
  ['handler: events', /\/live\//],
  ['handler: routes, responses, ids', /\/(todos\/routes|http\/\w[\w-]*|handler|app)\.js/],
  ['host: logging, order, guard', /\/hosts\/node\//],
  ['Node: http, net, built-ins', /^[^ ]* ?node:|\(program\)|^\S+$/],
];

function partOf(frame: ProfileNode['callFrame']): string {
  const name = where(frame);
  for (const [part, test] of PARTS) if (test.test(frame.url) || test.test(name)) return part;
  return 'other';
}

/** CPU per request of each part, over `files`, given how many requests they served. */
function partsTable(files: readonly string[], label: string): string {
  const selfMs = new Map<string, number>();
  let totalMs = 0;
  for (const file of files) {
    const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
    const parts = new Map(profile.nodes.map((node) => [node.id, partOf(node.callFrame)]));
    const idle = new Set(
      profile.nodes.filter((node) => node.callFrame.functionName === '(idle)').map((n) => n.id),
    );
    for (let index = 0; index < profile.samples.length - 1; index += 1) {
      if (idle.has(profile.samples[index]!)) continue;
      const part = parts.get(profile.samples[index]!) ?? 'other';
      const ms = profile.timeDeltas[index + 1]! / 1000;
      selfMs.set(part, (selfMs.get(part) ?? 0) + ms);
      totalMs += ms;
    }
  }
  const rows = [...selfMs].sort((a, b) => b[1] - a[1]);
  return formatTable(
    [`busy CPU by part, ${label}`, '% of busy'],
    rows.map(([part, ms]) => [part, format.fixed(1)((100 * ms) / totalMs)]),
  );
}

/** Ours' profiles in `dir`, tables for each thing it served, over all the rounds. */
export function profileSummaries(dir: string): string {
  const groups = new Map<string, string[]>();
  for (const name of readdirSync(dir).filter((name) => name.startsWith('ours-'))) {
    const group = name.replace(/-r\d+\.cpuprofile$/, '').replace(/\.cpuprofile$/, '');
    groups.set(group, [...(groups.get(group) ?? []), join(dir, name)]);
  }
  const tables = [...groups].flatMap(([group, files]) => [
    partsTable(files, group),
    topSelfTime(files),
  ]);
  return [
    `\nCPU profiles in ${relative(process.cwd(), dir)}; ours, by what it served:`,
    ...tables,
  ].join('\n\n');
}
