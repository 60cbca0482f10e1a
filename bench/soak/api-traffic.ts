import { Agent } from 'node:http';
import * as calls from './api-calls.ts';
import { mistake } from './api-mistakes.ts';
import type { Failures } from './failures.ts';
import { RequestFailed, send } from '../http-request.ts';
import type { Ledger } from './ledger.ts';
import { weighted } from './random.ts';
import type { ApiTally } from './tally.ts';

type Pick = 'create' | 'list' | 'get' | 'update (If-Match)' | 'update' | 'delete' | 'invalid';

/** Reads outnumber writes, as on a to-do list; about one request in five is a client's mistake. */
const MIX: readonly (readonly [Pick, number])[] = [
  ['list', 20],
  ['get', 20],
  ['create', 12],
  ['update (If-Match)', 8],
  ['update', 8],
  ['delete', 12],
  ['invalid', 20],
];
/** Items each connection holds at most: the list stays near connections × 3 items. */
const MAX_OWNED = 3;

export interface TrafficDeps {
  readonly port: number;
  readonly run: string;
  readonly ledger: Ledger;
  readonly failures: Failures;
  readonly tally: ApiTally;
}

/**
 * `connections` keep-alive connections, each a loop of one request at a time, until `stop()`.
 * Each loop owns the items it creates, so it knows the right answer to every request; when
 * stopped it deletes what it still holds, leaving the list as it found it, unless the run
 * has already failed.
 */
export class ApiTraffic {
  readonly #deps: TrafficDeps;
  readonly #agent: Agent;
  readonly #loops: Promise<void>[];
  #stopped = false;

  constructor(deps: TrafficDeps, connections: number) {
    this.#deps = deps;
    this.#agent = new Agent({ keepAlive: true, maxSockets: connections });
    this.#loops = Array.from({ length: connections }, () => this.#loop());
  }

  /** Resolves once every loop has finished its request and deleted its items. */
  async stop(): Promise<void> {
    this.#stopped = true;
    await Promise.all(this.#loops);
    // A fresh pool each phase: no idle connection is reused as the service times it out.
    this.#agent.destroy();
  }

  async #loop(): Promise<void> {
    const owned: calls.Owned[] = [];
    let listEtag: string | undefined;
    const { run } = this.#deps;
    while (!this.#stopped) {
      const item = owned[Math.floor(Math.random() * owned.length)];
      let pick = weighted(MIX);
      if (pick === 'create' && item !== undefined && owned.length >= MAX_OWNED) pick = 'delete';
      let call: calls.Call;
      if (pick === 'list') call = calls.list(listEtag, (etag) => (listEtag = etag));
      else if (pick === 'invalid') call = mistake(item, run);
      else if (pick === 'create' || item === undefined) {
        call = calls.create((created) => owned.push(created));
      } else if (pick === 'get') call = calls.get(item);
      else if (pick === 'delete') call = calls.remove(item, Math.random() < 0.5);
      else call = calls.update(item, pick === 'update (If-Match)');
      if ((await this.#make(call)) && call.kind === 'delete') owned.splice(owned.indexOf(item!), 1);
    }
    // After a failure the list is not checked, and a hung service would make each delete wait.
    if (this.#deps.failures.total > 0) return;
    for (const item of owned) await this.#make(calls.remove(item, false));
  }

  /** Sends `call` and checks its answer; false when anything was wrong. */
  async #make(call: calls.Call): Promise<boolean> {
    const { failures, tally, ledger, port } = this.#deps;
    const what = `${call.kind}: ${call.ask.method} ${call.ask.path}`;
    let answer;
    try {
      answer = await send(this.#agent, port, call.ask);
    } catch (error) {
      if (!(error instanceof RequestFailed)) throw error;
      failures.add(
        error.reset ? 'connection reset' : 'request error',
        `${call.kind}: ${error.message}`,
      );
      return false;
    }
    tally.record(call.kind, answer.ms);
    if (answer.status >= 500) {
      failures.add('5xx', `${what} answered ${answer.status}: ${answer.body.slice(0, 300)}`);
      return false;
    }
    if (!call.expect.includes(answer.status)) {
      const detail = `${what} answered ${answer.status}, not ${call.expect.join(' or ')}: ${answer.body.slice(0, 300)}`;
      failures.add('unexpected status', detail);
      return false;
    }
    try {
      const change = call.accept?.(answer);
      if (change === undefined) return true;
      tally.changes += 1;
      if (change.seq !== undefined) ledger.fromApi(change.seq, change.type, change.todoId);
    } catch (error) {
      failures.add(
        'wrong answer',
        `${what} answered ${answer.status} with ${(error as Error).message}`,
      );
      return false;
    }
    return true;
  }
}
