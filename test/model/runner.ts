import fc from 'fast-check';
import type { TestHost, TestService } from '../support/hosts.ts';
import { expectAnswer, readAnswer } from './answer.ts';
import { commandSpec } from './arbitraries.ts';
import { learn } from './learn.ts';
import { expectListsAsModel } from './list.ts';
import { ListsModel } from './lists-model.ts';
import { predict } from './predict.ts';
import { expectReplay, subscribe, type Subscription } from './replay.ts';
import { MODEL_LIMITS, MODEL_MAX_LISTS, type ModelSettings } from './settings.ts';
import type { CommandSpec } from './spec.ts';
import { canRun } from './targets.ts';
import { requestInit, wireRequest } from './wire.ts';

/** What one test compares with the model after each command. */
export type Aspect = 'answers' | 'list' | 'events';

export interface RunCounts {
  runs: number;
  commands: number;
}

interface Real {
  readonly service: TestService;
  readonly aspect: Aspect;
  readonly subscriptions: Subscription[];
  readonly counts: RunCounts;
}

/** One command of a sequence; it prints as its spec, ready to be pasted into a regression test. */
export class ModelCommand implements fc.AsyncCommand<ListsModel, Real> {
  constructor(readonly spec: CommandSpec) {}

  /** targets.ts, `canRun`: a command waits until there is what it picks from. */
  check(lists: Readonly<ListsModel>): boolean {
    return canRun(lists, this.spec);
  }

  async run(lists: ListsModel, real: Real): Promise<void> {
    real.counts.commands += 1;
    const request = wireRequest(lists, this.spec);
    const expected = predict(lists, request);
    if (expected.kind === 'stream') {
      // Opened only where its events are compared; where it would be refused, it is sent below.
      if (real.aspect !== 'events') return;
      const list = lists.find(request.listId!)!;
      real.subscriptions.push(await subscribe(real.service, list, request));
      return;
    }
    const response = await real.service.fetch(request.path, requestInit(request));
    const answer = await readAnswer(response);
    if (real.aspect === 'answers') expectAnswer(lists, request, expected, answer);
    learn(lists, request, expected, answer);
    if (real.aspect === 'list') await expectListsAsModel(real.service, lists, this.toString());
  }

  toString(): string {
    return JSON.stringify(this.spec);
  }
}

/**
 * Runs `commands` on a new service of `host`, checking `aspect` against the model. For
 * `events`, a stream of the default list is open from the start; the service's stopping ends
 * every stream a delete has not (on workerd, the named lists are deleted first), and each is
 * then replayed.
 */
export async function runSequence(
  host: TestHost,
  aspect: Aspect,
  commands: Iterable<fc.AsyncCommand<ListsModel, Real>>,
  counts: RunCounts = { runs: 0, commands: 0 },
): Promise<void> {
  counts.runs += 1;
  // workerd holds any number of lists, and its host refuses the option.
  const maxLists = host.boundsLists ? MODEL_MAX_LISTS : undefined;
  const service = await host.start({ limits: MODEL_LIMITS, maxLists });
  let closing: Promise<void> | undefined;
  const close = () => (closing ??= service.close());
  const lists = new ListsModel(MODEL_LIMITS, maxLists);
  const real: Real = { service, aspect, subscriptions: [], counts };
  try {
    if (aspect === 'events') {
      const request = wireRequest(lists, { op: 'subscribe' });
      real.subscriptions.push(await subscribe(service, lists.defaultList, request));
    }
    if (aspect === 'list') await expectListsAsModel(service, lists, 'the start');
    await fc.asyncModelRun(() => ({ model: lists, real }), commands);
    if (aspect === 'events' && host.stopKeepsNamedStreams) await deleteNamedLists(lists, real);
    const replays = real.subscriptions.map((subscription, index) =>
      expectReplay(subscription, `stream ${index + 1}`),
    );
    await Promise.all([close(), ...replays]);
  } finally {
    for (const { stream } of real.subscriptions) stream.close();
    await close();
  }
}

/**
 * Deletes every named list the model holds, as a command of the sequence would: where stopping
 * the service leaves named lists' streams open (workerd), each then ends with `list-deleted`.
 */
async function deleteNamedLists(lists: ListsModel, real: Real): Promise<void> {
  const deleteFirst = new ModelCommand({
    op: 'delete-list',
    list: { kind: 'named', pick: 0 },
    ifMatch: 'none',
  });
  for (let left = lists.named.length; left > 0; left -= 1) {
    await deleteFirst.run(lists, real);
    if (lists.named.length !== left - 1) throw new Error('A named list was not deleted.');
  }
}

/**
 * Random sequences of commands, each run against a new service; shrinks what fails, and says
 * how to replay the shrunk case. `testName` is the test's full name, for `vitest -t`.
 */
export async function checkAgainstModel(
  host: TestHost,
  aspect: Aspect,
  settings: ModelSettings,
  testName: string,
): Promise<RunCounts> {
  const counts: RunCounts = { runs: 0, commands: 0 };
  const commands = fc.commands(
    [commandSpec(MODEL_LIMITS).map((spec) => new ModelCommand(spec))],
    // The default size keeps sequences to a few commands: too few to fill the list.
    { maxCommands: settings.maxCommands, size: 'max', replayPath: settings.replayPath },
  );
  const details = await fc.check(
    fc.asyncProperty(commands, (sequence) => runSequence(host, aspect, sequence, counts)),
    {
      seed: settings.seed,
      numRuns: settings.numRuns,
      path: settings.path,
      plugins:
        settings.timeLimitMs === undefined
          ? []
          : [fc.interruptAfterTimeLimit(settings.timeLimitMs)],
    },
  );
  if (details.failed) {
    const report = await fc.asyncDefaultReportMessage(details);
    const hint = details.counterexamplePath === null ? '' : replayHint(settings, details, testName);
    throw new Error(`${report}\n\n${hint}`, {
      cause: details.errorInstance,
    });
  }
  return counts;
}

/** The path only replays with the settings that generated it, so the hint names them all. */
function replayHint(settings: ModelSettings, details: fc.RunDetails<unknown>, testName: string) {
  const replayPath = /replayPath="([^"]*)"/.exec(String(details.counterexample))?.[1];
  const env = [
    `MODEL_SEED=${details.seed}`,
    `MODEL_COMMANDS=${settings.maxCommands}`,
    `MODEL_PATH='${details.counterexamplePath}'`,
    ...(replayPath === undefined ? [] : [`MODEL_REPLAY_PATH='${replayPath}'`]),
  ];
  return `Replay the shrunk case: ${env.join(' ')} npx vitest run test/model -t '${testName}'`;
}
