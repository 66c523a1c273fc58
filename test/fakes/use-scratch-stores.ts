import { afterEach } from 'vitest';
import { createStore } from '../../src/store/create-store.js';
import type { Store } from '../../src/store/key-value-namespace.js';
import { createTemporaryFolder } from '../unit/registry/registry-fixtures.js';

/** For a describe block: opens real SQLite stores in temporary folders, each closed and its folder removed after each test. */
export function useScratchStores(prefix: string): () => Promise<Store> {
  const folders: ReturnType<typeof createTemporaryFolder>[] = [];
  const stores: Store[] = [];
  afterEach(async () => {
    while (stores.length > 0) await stores.pop()?.close();
    while (folders.length > 0) folders.pop()?.remove();
  });
  return async () => {
    const folder = createTemporaryFolder(prefix);
    folders.push(folder);
    const store = await createStore({ dataDir: folder.path });
    stores.push(store);
    return store;
  };
}
