/** The reserved event source name of hooks, like the scheduler's `cron`: no channel adapter may take it. */
export const hooksSourceName = 'hooks';
