export * from './config-jobs.js';
export * from './content-hash.js';
export * from './create-job-runner.js';
export * from './create-scheduler-port.js';
export * from './create-scheduler.js';
export * from './job-store.js';
export * from './job-timers.js';
export * from './list-jobs.js';
export * from './notify-owner.js';
export * from './parse-schedule.js';
export * from './plan-startup.js';
export * from './to-event.js';

