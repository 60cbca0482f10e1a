import { describe, expect, it } from 'vitest';
import type { IdentifiedEvent } from '../../src/model/events.ts';
import { EventOrder, isLaterTitle } from '../../src/page/event-order.ts';

const todo = { id: 'a', title: 'A', completed: false };
const snapshot = (id: string): IdentifiedEvent => ({ type: 'snapshot', id, todos: [todo] });
const created = (id: string): IdentifiedEvent => ({ type: 'created', id, todo });

function order() {
  const applied: string[] = [];
  const events = new EventOrder((event) => applied.push(`${event.type} ${event.id}`));
  return { events, applied };
}

describe('EventOrder', () => {
  it('applies each change once, however many tabs relay it', () => {
    const { events, applied } = order();
    for (const event of [snapshot('r.1'), created('r.2'), created('r.2'), created('r.3')]) {
      events.accept(event);
    }
    events.accept(created('r.2'));
    expect(applied).toEqual(['snapshot r.1', 'created r.2', 'created r.3']);
    expect(events.lastId).toBe('r.3');
  });

  it('holds changes that come before any list, and applies those later than the list', () => {
    const { events, applied } = order();
    events.accept(created('r.4'));
    events.accept(created('r.5'));
    expect(applied).toEqual([]);
    events.accept(snapshot('r.4'));
    expect(applied).toEqual(['snapshot r.4', 'created r.5']);
  });

  it('ignores a list read that is older than what is shown', () => {
    const { events, applied } = order();
    events.accept(snapshot('r.5'));
    events.accept(snapshot('r.3'));
    events.accept(snapshot('r.5'));
    expect(applied).toEqual(['snapshot r.5']);
  });

  it('takes the snapshot of a new run, and no change of another run before it', () => {
    const { events, applied } = order();
    events.accept(snapshot('old.7'));
    events.accept(created('new.1'));
    events.accept(snapshot('new.0'));
    events.accept(created('new.1'));
    events.accept(created('old.8'));
    expect(applied).toEqual(['snapshot old.7', 'snapshot new.0', 'created new.1']);
  });

  it('compares sequences as numbers', () => {
    const { events, applied } = order();
    events.accept(snapshot('r.9'));
    events.accept(created('r.10'));
    expect(applied).toEqual(['snapshot r.9', 'created r.10']);
  });

  it('lets through ids it cannot place rather than lose a change', () => {
    const { events, applied } = order();
    events.accept(snapshot('opaque'));
    events.accept(created('other'));
    events.accept(created('other'));
    expect(applied).toEqual(['snapshot opaque', 'created other', 'created other']);
  });
});

describe('isLaterTitle, which picks the title a list page shows', () => {
  it('takes the first title it hears, however it came', () => {
    expect(isLaterTitle('r.0', undefined)).toBe(true);
  });

  it('keeps a renamed title when a read answers with an older version', () => {
    expect(isLaterTitle('r.3', 'r.7')).toBe(false);
  });

  it('takes a rename later than the title read', () => {
    expect(isLaterTitle('r.12', 'r.3')).toBe(true);
  });

  it('changes nothing for the version it holds, as when a rename and its event both arrive', () => {
    expect(isLaterTitle('r.7', 'r.7')).toBe(false);
  });

  it('takes the title of another run, or of a version it cannot place', () => {
    expect(isLaterTitle('new.2', 'old.40')).toBe(true);
    expect(isLaterTitle('not a version', 'new.2')).toBe(true);
  });
});
