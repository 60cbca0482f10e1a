export interface SseEvent {
  /** The `id` field, or undefined when the event had none (the service always sends one). */
  readonly id: string | undefined;
  readonly type: string;
  readonly data: string;
}

/**
 * Splits an event stream's text into events as the HTML standard's parsing rules say
 * (fields, comments, a blank line ending an event), so a heartbeat that arrives in two parts
 * or in the middle of an event is read as a browser reads it. Unlike EventSource, an event
 * without an `id` keeps no id from an earlier one: the soak checks each event's own.
 */
export class SseParser {
  readonly #onEvent: (event: SseEvent) => void;
  #pending = '';
  #id: string | undefined;
  #type = '';
  #data: string[] = [];

  constructor(onEvent: (event: SseEvent) => void) {
    this.#onEvent = onEvent;
  }

  push(text: string): void {
    this.#pending += text;
    let start = 0;
    for (
      let end = this.#pending.indexOf('\n');
      end !== -1;
      end = this.#pending.indexOf('\n', start)
    ) {
      this.#line(this.#pending.slice(start, end));
      start = end + 1;
    }
    this.#pending = this.#pending.slice(start);
  }

  #line(line: string): void {
    if (line === '') return this.#dispatch();
    if (line.startsWith(':')) return;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'id') this.#id = value;
    else if (field === 'event') this.#type = value;
    else if (field === 'data') this.#data.push(value);
  }

  #dispatch(): void {
    const data = this.#data;
    const id = this.#id;
    const type = this.#type || 'message';
    this.#data = [];
    this.#id = undefined;
    this.#type = '';
    if (data.length > 0) this.#onEvent({ id, type, data: data.join('\n') });
  }
}
