export * from './callback-data.js';
export * from './check-telegram-token.js';
export * from './render.js';
export * from './telegram-channel.js';
export * from './to-event.js';
export * from './update-schema.js';
