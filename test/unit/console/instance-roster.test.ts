import { afterEach, describe, expect, it } from 'vitest';
import { createInstanceRoster, type InstanceSighting } from '../../../src/console/instance-roster.js';
import { createStore } from '../../../src/store/create-store.js';
import type { Store } from '../../../src/store/key-value-namespace.js';

let store: Store | undefined;
afterEach(async () => {
  await store?.close();
});

describe('the console’s instance roster', () => {
  it('lists every instance that reports on the store, its own first with the roles it leads, and forgets one that stopped', async () => {
    store = await createStore({ url: 'memory:', dataDir: '.' });
    const sightings = store.namespace<InstanceSighting>('console-instances');
    const now = () => new Date('2026-12-02T10:00:00.000Z');
    const errors: unknown[] = [];
    const first = createInstanceRoster({ sightings, self: () => ({ id: 'b-host', mode: 'cluster', leads: ['telegram-poller'] }), now, onError: (error) => errors.push(error) });
    const second = createInstanceRoster({ sightings, self: () => ({ id: 'a-host', mode: 'cluster', leads: [] }), now, onError: (error) => errors.push(error) });
    await new Promise((resolve) => setImmediate(resolve));
    expect((await first.list()).map((sighting) => [sighting.id, sighting.leads])).toEqual([
      ['b-host', ['telegram-poller']],
      ['a-host', []],
    ]);
    await second.stop();
    expect((await first.list()).map((sighting) => sighting.id)).toEqual(['b-host']);
    await first.stop();
    expect(errors).toEqual([]);
  });
});
