import { setFlagsFromString } from 'node:v8';

/**
 * Caps how far V8 grows the old generation past what a full collection kept (`runtime.heapGrowthPercent`; 0 leaves
 * V8's own sizing). V8 otherwise picks the factor from how fast the process allocates against how fast it collects,
 * up to 4 times on a fast machine: a burst of turns then leaves the process holding several times the memory it uses.
 * Process-wide, so only a process's entry point (`start`, `chat`) calls it, once, before the app is built.
 */
export function applyHeapGrowth(percent: number): void {
  if (percent > 0) setFlagsFromString(`--heap-growing-percent=${Math.round(percent)}`);
}
