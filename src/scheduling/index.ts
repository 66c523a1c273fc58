export * from './scheduled-job.js';
