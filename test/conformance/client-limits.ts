import { describe, expect, it, onTestFinished } from 'vitest';
import { DEFAULT_APP_CONFIG } from '../../src/config.ts';
import { LISTS_PATH, listPathOf, namedListPaths } from '../../src/model/resources.ts';
import { expectProblem, sendJson } from '../support/api.ts';
import { useService, type TestHost, type TestService } from '../support/hosts.ts';
import { openStream, type StreamReader } from '../support/sse.ts';

/** Low, so that a test reaches them; the defaults are 30 and 50. */
const LISTS_PER_MINUTE = 3;
const STREAMS_PER_ADDRESS = 2;

let addressesTaken = 0;
/**
 * A loopback address no other test of this process has used: a runtime the workerd hosts keep
 * between tests keeps its counts too.
 */
function newAddress(): string {
  addressesTaken += 1;
  return `127.9.${Math.floor(addressesTaken / 200)}.${(addressesTaken % 200) + 1}`;
}

/** More than a test that fills a client's minute of list creations takes. */
const FILLING_MS = 5000;

/**
 * Resolves once a test has `FILLING_MS` before the clock's minute ends, where the host counts
 * by such minutes: one that ended mid-test would start the client's count again.
 */
async function minuteToFill(host: TestHost): Promise<void> {
  const left = 60_000 - (Date.now() % 60_000);
  if (host.countsByClockMinute && left < FILLING_MS) {
    await new Promise((resolve) => setTimeout(resolve, left + 50));
  }
}

/** The service as seen by the client at `address`. */
function clientAt(service: TestService, address: string) {
  return {
    paths: service.paths,
    fetch: (path: string, init?: RequestInit) => service.fetchFrom(address, path, init),
  };
}

/**
 * docs/api.md, Limits per client: list creations a minute, and open event streams. `streamsOnly`
 * where the host's creation limit is fixed at its start (`wrangler dev`, by `wrangler.toml`).
 */
export function clientLimitsSuite(host: TestHost, { streamsOnly = false } = {}) {
  if (!streamsOnly) creationLimits(host);
  streamLimits(host);
  if (!streamsOnly) defaultLimits(host);
}

function creationLimits(host: TestHost) {
  describe('list creations per client address', () => {
    const api = useService(host, { limits: { listsPerMinute: LISTS_PER_MINUTE } });
    const create = (address: string, init: RequestInit = { method: 'POST' }) =>
      api().fetchFrom(address, LISTS_PATH, init);
    /** An address that has made all the lists it may this minute. */
    const spent = async () => {
      await minuteToFill(host);
      const address = newAddress();
      for (let made = 0; made < LISTS_PER_MINUTE; made += 1) {
        expect((await create(address)).status).toBe(201);
      }
      return address;
    };

    it('refuses the creation past limits.listsPerMinute with 429, Retry-After and RateLimit headers', async () => {
      const response = await create(await spent());
      await expectProblem(response, 429);
      const retryAfter = Number(response.headers.get('retry-after'));
      expect([
        retryAfter >= 1 && retryAfter <= 60,
        response.headers.get('ratelimit-policy'),
        response.headers.get('ratelimit'),
      ]).toEqual([true, `"lists";q=${LISTS_PER_MINUTE};w=60`, `"lists";r=0;t=${retryAfter}`]);
    });

    it('makes no list when it refuses one', async () => {
      const address = await spent();
      const before = await api().countLists();
      expect((await create(address)).status).toBe(429);
      expect(await api().countLists()).toBe(before);
    });

    it('says in the refusal when to retry', async () => {
      const response = await create(await spent());
      const { detail } = await expectProblem(response, 429);
      expect(detail).toContain(`Retry in ${response.headers.get('retry-after')} seconds`);
    });

    it('still makes lists for another address', async () => {
      await spent();
      expect((await create(newAddress())).status).toBe(201);
    });

    it('gives the policy with every list it makes', async () => {
      const response = await create(newAddress());
      expect(response.headers.get('ratelimit-policy')).toBe(`"lists";q=${LISTS_PER_MINUTE};w=60`);
    });

    it('answers a retry of a create made already, past the limit, with the list made', async () => {
      await minuteToFill(host);
      const address = newAddress();
      const keyed = { method: 'POST', headers: { 'idempotency-key': crypto.randomUUID() } };
      const first = (await (await create(address, keyed)).json()) as { id: string };
      for (let made = 1; made < LISTS_PER_MINUTE; made += 1) await create(address);
      const retry = await create(address, keyed);
      expect([retry.status, ((await retry.json()) as { id: string }).id]).toEqual([201, first.id]);
    });

    it('refuses a create with an Idempotency-Key past the limit with 429 and RateLimit headers', async () => {
      const keyed = { method: 'POST', headers: { 'idempotency-key': crypto.randomUUID() } };
      const response = await create(await spent(), keyed);
      await expectProblem(response, 429);
      expect(response.headers.get('ratelimit')).toMatch(/^"lists";r=0;t=\d+$/);
    });

    it('does not count a create it refuses for its body', async () => {
      const address = newAddress();
      for (let refused = 0; refused <= LISTS_PER_MINUTE; refused += 1) {
        expect((await create(address, sendJson('POST', { title: 7 }))).status).toBe(400);
      }
      expect((await create(address)).status).toBe(201);
    });
  });
}

function streamLimits(host: TestHost) {
  describe('event streams per client address', () => {
    // Some hosts hear that a client left only when a write to it fails, at the latest at the
    // next heartbeat: keep that short.
    const api = useService(host, {
      sse: { maxClientsPerAddress: STREAMS_PER_ADDRESS, heartbeatSeconds: 1 },
    });
    /** Opens a stream as `address`, closed after the test. */
    const streamAs = async (address: string, path = api().paths.sse): Promise<StreamReader> => {
      const stream = await openStream(clientAt(api(), address), { path });
      onTestFinished(() => stream.close());
      return stream;
    };
    const refusal = (address: string, path = api().paths.sse) => api().fetchFrom(address, path);
    /** An address holding all the streams it may, on the default list or at `path`. */
    const full = async (path?: string) => {
      const address = newAddress();
      for (let open = 0; open < STREAMS_PER_ADDRESS; open += 1) await streamAs(address, path);
      return address;
    };
    const namedList = async () => {
      const response = await api().fetchFrom(newAddress(), LISTS_PATH, { method: 'POST' });
      return ((await response.json()) as { id: string }).id;
    };

    it('refuses a stream past sse.maxClientsPerAddress with 429 and Retry-After', async () => {
      const response = await refusal(await full());
      await expectProblem(response, 429);
      expect(Number(response.headers.get('retry-after'))).toBeGreaterThan(0);
    });

    it('counts an address’s streams across lists, /api/sse included', async () => {
      const address = newAddress();
      const { sse } = namedListPaths(await namedList());
      await streamAs(address);
      await streamAs(address, sse);
      await expectProblem(await refusal(address, sse), 429);
    });

    it('opens no stream when it refuses one', async () => {
      // A list of its own: on workerd a stream of an earlier test may still be ending on the
      // default list's object, so a count there can match while one of these is not yet in it.
      const listId = await namedList();
      const { sse } = namedListPaths(listId);
      const address = await full(sse);
      const stats = () => api().streamStats(listId);
      const openStreams = async () => (await stats()).openStreams;
      await expect.poll(openStreams, { timeout: 5000 }).toBe(STREAMS_PER_ADDRESS);
      const before = await stats();
      await expectProblem(await refusal(address, sse), 429);
      expect(await stats()).toEqual(before);
    });

    it('still opens streams for another address', async () => {
      await full();
      await streamAs(newAddress());
    });

    it('frees a place when one of the address’s streams is closed', async () => {
      const address = newAddress();
      const first = await streamAs(address);
      await streamAs(address);
      first.close();
      await expect.poll(() => openedFrom(api(), address), { timeout: 5000 }).toBe(true);
    });

    it('frees the places of streams that ended with their list', async () => {
      const address = newAddress();
      const id = await namedList();
      const { sse } = namedListPaths(id);
      await streamAs(address, sse);
      await streamAs(address, sse);
      await api().fetch(listPathOf(id), { method: 'DELETE' });
      await expect.poll(() => openedFrom(api(), address), { timeout: 5000 }).toBe(true);
    });
  });
}

function defaultLimits(host: TestHost) {
  describe('with the documented defaults', () => {
    const { listsPerMinute } = DEFAULT_APP_CONFIG.limits;
    const { maxClientsPerAddress } = DEFAULT_APP_CONFIG.sse;
    const api = useService(host, {
      limits: { listsPerMinute },
      sse: { maxClientsPerAddress, heartbeatSeconds: 1 },
    });

    it('refuses the 31st list creation in a minute from one address, and not another’s', async () => {
      await minuteToFill(host);
      const address = newAddress();
      const statuses = [];
      for (let made = 0; made <= listsPerMinute; made += 1) {
        const response = await api().fetchFrom(address, LISTS_PATH, { method: 'POST' });
        await response.body?.cancel();
        statuses.push(response.status);
      }
      const other = await api().fetchFrom(newAddress(), LISTS_PATH, { method: 'POST' });
      await other.body?.cancel();
      expect([
        statuses.filter((status) => status === 201).length,
        statuses.at(-1),
        other.status,
      ]).toEqual([listsPerMinute, 429, 201]);
    });

    it('refuses the 51st open stream of one address, and not another’s', async () => {
      const address = newAddress();
      for (let open = 0; open < maxClientsPerAddress; open += 1) {
        const stream = await openStream(clientAt(api(), address));
        onTestFinished(() => stream.close());
      }
      const refused = await api().fetchFrom(address, api().paths.sse);
      await refused.body?.cancel();
      expect([refused.status, await openedFrom(api(), newAddress())]).toEqual([429, true]);
    });
  });
}

/** Whether `address` could open the default list's stream now; one opened is closed after. */
async function openedFrom(service: TestService, address: string): Promise<boolean> {
  const abort = new AbortController();
  const response = await service.fetchFrom(address, service.paths.sse, { signal: abort.signal });
  if (response.status !== 200) {
    await response.body?.cancel();
    return false;
  }
  onTestFinished(() => abort.abort());
  return true;
}
