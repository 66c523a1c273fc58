export * from './cli-channel.js';
export * from './render.js';
export * from './to-event.js';
