export * from './channel-adapter.js';
export * from './channel-context.js';
