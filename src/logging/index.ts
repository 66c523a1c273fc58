export * from './create-logger.js';
export * from './mask-secrets.js';
export * from './trace-context.js';
