export * from './echo-error.js';
