import type { KeyValueNamespace } from '../store/key-value-namespace.js';

/** One instance as it last reported itself: its id, whether it runs alone or in a cluster, the roles it leads. */
export type InstanceSighting = { readonly id: string; readonly mode: 'single' | 'cluster'; readonly leads: readonly string[]; readonly seenAt: string };

/**
 * The instances sharing this store, for the console's health page: each instance with the console on writes its own
 * sighting every `everyMs` (kept three times as long), so a cluster's page lists every instance and who leads what.
 */
export interface InstanceRoster {
  /** Live sightings, this instance's first. */
  list(): Promise<readonly InstanceSighting[]>;
  /** Stops reporting and removes this instance's sighting. */
  stop(): Promise<void>;
}

/** Starts reporting this instance (at once, then every `everyMs`, default 10 s). */
export function createInstanceRoster(input: {
  readonly sightings: KeyValueNamespace<InstanceSighting>;
  readonly self: () => Omit<InstanceSighting, 'seenAt'>;
  readonly now: () => Date;
  readonly onError: (error: unknown) => void;
  readonly everyMs?: number;
}): InstanceRoster {
  const everyMs = input.everyMs ?? 10_000;
  const beat = () => {
    const self = input.self();
    input.sightings.set(self.id, { ...self, seenAt: input.now().toISOString() }, everyMs * 3).catch(input.onError);
  };
  beat();
  const timer = setInterval(beat, everyMs);
  timer.unref();
  return {
    async list() {
      const own = input.self().id;
      const live = (await input.sightings.entries()).map(([, sighting]) => sighting);
      return [...live.filter((sighting) => sighting.id === own), ...live.filter((sighting) => sighting.id !== own).sort((left, right) => left.id.localeCompare(right.id))];
    },
    async stop() {
      clearInterval(timer);
      await input.sightings.delete(input.self().id).catch(input.onError);
    },
  };
}
