export * from './approval-hook.js';
export * from './audit-log.js';
export * from './canonical-json.js';
export * from './define-tool.js';
export * from './replay-guard.js';
export * from './tool-context.js';
export * from './tool-outcome.js';
export * from './tool-registry.js';
