export * from './choose-compaction-span.js';
export * from './compaction-cursor.js';
export * from './compaction-prompt.js';
export * from './compaction-summary.js';
export * from './create-history-compactor.js';
export * from './message-size.js';
