export * from './collect-secrets.js';
export * from './config-schema.js';
export * from './is-secret-name.js';
export * from './load-config.js';
