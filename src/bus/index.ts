export * from './create-in-process-bus.js';
export * from './message-bus.js';
