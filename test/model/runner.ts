import fc from 'fast-check';
import type { TestHost, TestService } from '../support/hosts.ts';
import { openStream } from '../support/sse.ts';
import { expectAnswer, readAnswer } from './answer.ts';
import { commandSpec } from './arbitraries.ts';
import { learn } from './learn.ts';
import { expectListAsModel } from './list.ts';
import { TodoModel } from './model.ts';
import { predict } from './predict.ts';
import { expectReplay, type Subscription } from './replay.ts';
import { MODEL_LIMITS, type ModelSettings } from './settings.ts';
import type { CommandSpec, RequestSpec } from './spec.ts';
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
export class ModelCommand implements fc.AsyncCommand<TodoModel, Real> {
  constructor(readonly spec: CommandSpec) {}

  /** A command that needs an item, or a deleted one, waits until there is one. */
  check(model: Readonly<TodoModel>): boolean {
    const needs = 'target' in this.spec ? this.spec.target.kind : this.spec.op;
    switch (needs) {
      case 'existing':
      case 'upper-case':
      case 'wrong-method-on-item':
        return model.items.length > 0;
      case 'deleted':
        return model.deleted.length > 0;
      default:
        return true;
    }
  }

  async run(model: TodoModel, real: Real): Promise<void> {
    real.counts.commands += 1;
    if (this.spec.op === 'subscribe') {
      if (real.aspect === 'events') await subscribe(real, model);
      return;
    }
    await this.#request(this.spec, model, real);
  }

  async #request(spec: RequestSpec, model: TodoModel, real: Real): Promise<void> {
    const request = wireRequest(model, spec);
    const expected = predict(model, request);
    const answer = await readAnswer(await real.service.fetch(request.path, requestInit(request)));
    if (real.aspect === 'answers') expectAnswer(model, request, expected, answer);
    const change = learn(model, request, expected, answer);
    if (real.aspect === 'list') await expectListAsModel(real.service, model, this.toString());
    if (change === undefined) return;
    for (const { changes } of real.subscriptions) {
      changes.push({ ...change, command: this.toString(), list: [...model.items] });
    }
  }

  toString(): string {
    return JSON.stringify(this.spec);
  }
}

async function subscribe(real: Real, model: TodoModel): Promise<void> {
  // Over HTTP, a stream's connection would otherwise stay open once the stream ends, and the
  // stopping server would wait for its next sweep of idle connections to close it.
  const stream = await openStream(real.service, { headers: { connection: 'close' } });
  real.subscriptions.push({ stream, opening: [...model.items], changes: [] });
}

/**
 * Runs `commands` on a new service of `host`, checking `aspect` against the model. For
 * `events`, a stream is open from the start; the service's stopping ends every stream, and
 * each is then replayed.
 */
export async function runSequence(
  host: TestHost,
  aspect: Aspect,
  commands: Iterable<fc.AsyncCommand<TodoModel, Real>>,
  counts: RunCounts = { runs: 0, commands: 0 },
): Promise<void> {
  counts.runs += 1;
  const service = await host.start({ limits: MODEL_LIMITS });
  let closing: Promise<void> | undefined;
  const close = () => (closing ??= service.close());
  const model = new TodoModel(MODEL_LIMITS);
  const real: Real = { service, aspect, subscriptions: [], counts };
  try {
    if (aspect === 'events') await subscribe(real, model);
    if (aspect === 'list') await expectListAsModel(service, model, 'the start');
    await fc.asyncModelRun(() => ({ model, real }), commands);
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
