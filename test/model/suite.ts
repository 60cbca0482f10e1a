import { describe, it } from 'vitest';
import type { TestHost } from '../support/hosts.ts';
import { modelRegressionSuite } from './regressions.ts';
import { checkAgainstModel, type Aspect } from './runner.ts';
import { modelSettings, type RunBudget } from './settings.ts';

/** Green runs take seconds; shrinking a failure over HTTP may take minutes, and is worth it. */
const SHRINKING_MS = 180_000;

const TESTS: readonly [title: string, aspect: Aspect][] = [
  ['answers every request as the model does', 'answers'],
  ['holds the model’s lists after every request', 'list'],
  ['streams events that replay into the model’s lists', 'events'],
];

/**
 * Issue 6, item 1: random sequences of requests, compared with a reference model, on the
 * `aspects` given (all by default), then the sequences kept from shrunk failures unless not.
 */
export function modelBasedSuite(
  host: TestHost,
  budget: RunBudget,
  { aspects = TESTS.map(([, aspect]) => aspect), keptSequences = true } = {},
): void {
  const settings = modelSettings(budget);
  describe(`${host.name} against the reference model`, () => {
    if (settings.fuzz) console.log(`${host.name}: fast-check seed ${settings.seed}`);

    it.each(TESTS.filter(([, aspect]) => aspects.includes(aspect)))(
      '%s',
      async (title, aspect) => {
        const started = performance.now();
        const name = `${host.name} against the reference model ${title}`;
        const counts = await checkAgainstModel(host, aspect, settings, name);
        if (settings.fuzz) {
          const seconds = ((performance.now() - started) / 1000).toFixed(1);
          console.log(
            `${host.name}, ${aspect}: ${counts.runs} runs, ${counts.commands} commands ` +
              `in ${seconds} s, seed ${settings.seed}`,
          );
        }
      },
      settings.fuzz ? 0 : SHRINKING_MS,
    );

    if (keptSequences) modelRegressionSuite(host);
  });
}
