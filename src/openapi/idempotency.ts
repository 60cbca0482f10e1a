import { MAX_KEY_LENGTH } from '../http/idempotency-key.ts';
import { problem, ref } from './parts.ts';

/** The `Idempotency-Key` request header of the three creates (docs/api.md, Idempotency-Key). */
export const IDEMPOTENCY_KEY_PARAMETER = {
  name: 'Idempotency-Key',
  in: 'header',
  description:
    `A Structured Field string (\`"…"\`) or token of 1 to ${MAX_KEY_LENGTH} printable ASCII ` +
    'characters, with no parameters. A retry with the same key and the same create is answered ' +
    'exactly as the first was, and changes nothing; keys of item creates are per list, and ' +
    "remembered while their change is among the list's last `sse.replayEvents`. For lists, " +
    'the key must be unguessable (a UUID): a retry answers with the list’s link. For ' +
    'same-origin pages and clients other than browsers: CORS preflights do not allow it.',
  schema: { type: 'string', minLength: 1 },
};

/** A create's answers that only the header brings about. */
export function idempotencyAnswers(noun: 'item' | 'list') {
  return {
    parameters: [ref('parameters', 'IdempotencyKey')],
    responses: {
      '409': problem(
        'The first request with this `Idempotency-Key` is still being handled; retry once it ' +
          'is answered. Nothing changed.',
      ),
      '422': problem(
        `This \`Idempotency-Key\` was used for a create of another ${noun}; nothing changed.`,
      ),
      ...(noun === 'list' && {
        '410': problem(
          'The list this `Idempotency-Key` made has been deleted; the key cannot make it again.',
        ),
      }),
    },
  };
}
