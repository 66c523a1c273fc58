import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

type Collect = (options: { readonly type: 'minor' | 'major'; readonly execution: 'sync' | 'async' }) => void;

let collect: Collect | undefined;

/**
 * Runs a young-generation garbage collection (a scavenge, about a millisecond). Streams of large files
 * leave one dead buffer per chunk read; V8 frees them only once tens of megabytes of them pile up, which
 * is the memory a 20 MB download would otherwise hold. V8 offers the call only behind `--expose-gc`,
 * which is set for this one lookup.
 */
export function collectYoungGarbage(): void {
  if (collect === undefined) {
    setFlagsFromString('--expose-gc');
    collect = runInNewContext('gc') as Collect;
  }
  collect({ type: 'minor', execution: 'sync' });
}
