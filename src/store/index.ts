export * from './create-store.js';
export * from './key-lock.js';
export * from './key-value-namespace.js';
