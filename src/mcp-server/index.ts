export * from './caller-requests.js';
export * from './create-mcp-serve-route.js';
export * from './create-rate-limiter.js';
export * from './find-serve-key.js';
export * from './register-serve-tools.js';
export * from './serve-caller.js';
export * from './serve-texts.js';
export * from './wait-until-settled.js';
