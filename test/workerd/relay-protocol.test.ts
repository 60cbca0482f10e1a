import { describe, expect, it } from 'vitest';
import {
  ACK_BYTES,
  MAX_MESSAGE_BYTES,
  messagesOf,
  PassedMessages,
  RECONNECT,
  RELAY_QUEUE_BYTES,
  SEND_WINDOW_BYTES,
  startsWithSnapshot,
  withoutRetry,
} from '../../src/hosts/workerd/relay-protocol.ts';

const bytes = (text: string) => new TextEncoder().encode(text);
const text = (parts: Iterable<Uint8Array>) =>
  [...parts].map((part) => new TextDecoder().decode(part));

const EVENTS =
  'id: r.1\nevent: created\ndata: {"id":"a","title":"id: r.9","completed":false}\n\n' +
  'event: list-deleted\ndata: {"id":"x","title":"t"}\n\n' +
  'id: r.2\nevent: deleted\ndata: {"id":"a","title":"\\n\\nid: r.8","completed":false}\n\n';

const MiB = 1024 * 1024;

describe('the relay’s bounds', () => {
  it('are the figures docs/hosts.md gives', () => {
    const bounds = { MAX_MESSAGE_BYTES, SEND_WINDOW_BYTES, ACK_BYTES, RELAY_QUEUE_BYTES };
    expect([bounds, RECONNECT]).toEqual([
      {
        MAX_MESSAGE_BYTES: MiB,
        SEND_WINDOW_BYTES: 2 * MiB,
        ACK_BYTES: 64 * 1024,
        RELAY_QUEUE_BYTES: 5 * MiB,
      },
      { firstDelayMs: 250, maxDelayMs: 4000, attempts: 6, steadyMs: 10_000 },
    ]);
  });
});

describe('the messages the object sends the worker', () => {
  it('sends what fits in one message as it is', () => {
    expect(text(messagesOf(bytes(EVENTS)))).toEqual([EVENTS]);
  });

  it('keeps whole SSE messages together, none over the largest size', () => {
    const event = `id: r.1\nevent: created\ndata: ${'x'.repeat(400_000)}\n\n`;
    const messages = [...messagesOf(bytes(event.repeat(5)))];
    expect(messages.map((message) => message.byteLength)).toEqual([
      event.length * 2,
      event.length * 2,
      event.length,
    ]);
  });

  it('cuts a single SSE message larger than the largest size into pieces of that size', () => {
    const snapshot = `retry: 3000\n\nid: r.0\nevent: snapshot\ndata: [${'x'.repeat(2_500_000)}]\n\n`;
    const messages = [...messagesOf(bytes(snapshot))];
    expect([
      messages.length > 2,
      messages.every((message) => message.byteLength <= MAX_MESSAGE_BYTES),
      text(messages).join(''),
    ]).toEqual([true, true, snapshot]);
  });
});

describe('an opening after the worker reconnects', () => {
  it('gives the whole list when it holds a snapshot', () => {
    const opening = bytes('retry: 3000\n\nid: r.0\nevent: snapshot\ndata: []\n\n');
    expect(startsWithSnapshot(withoutRetry(opening))).toBe(true);
  });

  it('goes on from the client’s last event when it holds the changes since', () => {
    const rest = withoutRetry(bytes(`retry: 3000\n\n${EVENTS}`));
    expect([startsWithSnapshot(rest), text([rest])]).toEqual([false, [EVENTS]]);
  });
});

describe('what the worker passed on', () => {
  it('resumes after the last whole event with an id, however the bytes were cut', () => {
    const passed = new PassedMessages(undefined);
    const stream = bytes(`retry: 3000\n\n${EVENTS}id: r.3\nevent: created\ndata: {`);
    for (let at = 0; at < stream.byteLength; at += 1) passed.pass(stream.subarray(at, at + 1));
    expect([passed.lastId, passed.atMessageEnd]).toEqual(['r.2', false]);
  });
});
