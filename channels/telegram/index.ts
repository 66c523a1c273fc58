export * from './callback-data.js';
export * from './check-telegram-token.js';
export * from './markdown-to-telegram-html.js';
export * from './render.js';
export * from './split-message.js';
export * from './telegram-channel.js';
export * from './to-event.js';
export * from './update-schema.js';
