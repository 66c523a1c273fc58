export * from './a2a-peer-tool.js';
export * from './create-a2a-peer-tools.js';
export * from './peer-connection.js';
export * from './task-text.js';
