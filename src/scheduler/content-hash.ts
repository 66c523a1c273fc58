import { hashToolCall } from '../registry/canonical-json.js';

/** The tool whose approval a job's content is bound to. */
export const scheduleToolName = 'schedule_task';

/** The parts of a job a person approved. */
export type JobContent = { readonly schedule: string; readonly prompt: string; readonly timezone: string; readonly timezoneApproved: boolean };

/**
 * The hash of a job's content, computed as the registry hashes the schedule_task call it came from:
 * `{ schedule, prompt }`, plus `timezone` when the model gave one. Recomputed at every firing: a job
 * edited since its approval no longer matches. Pure.
 */
export function contentHashOf(content: JobContent): string {
  const input = content.timezoneApproved ? { schedule: content.schedule, prompt: content.prompt, timezone: content.timezone } : { schedule: content.schedule, prompt: content.prompt };
  return hashToolCall(scheduleToolName, input);
}

/**
 * Which form of the content was approved. schedule_task passes the default zone when the model gave
 * none, so a zone equal to the default reads as "not given"; a hash from the caller settles it. Pure.
 */
export function approvedContentOf(input: {
  readonly schedule: string;
  readonly prompt: string;
  readonly timezone: string;
  readonly defaultTimezone: string;
  readonly approvedContentHash?: string;
}): { readonly ok: true; readonly content: JobContent; readonly hash: string } | { readonly ok: false; readonly error: string } {
  const withZone: JobContent = { schedule: input.schedule, prompt: input.prompt, timezone: input.timezone, timezoneApproved: true };
  const withoutZone: JobContent = { ...withZone, timezoneApproved: false };
  if (input.approvedContentHash !== undefined) {
    for (const content of input.timezone === input.defaultTimezone ? [withoutZone, withZone] : [withZone]) {
      const hash = contentHashOf(content);
      if (hash === input.approvedContentHash) return { ok: true, content, hash };
    }
    return { ok: false, error: 'the approved content does not match the task to create.' };
  }
  const content = input.timezone === input.defaultTimezone ? withoutZone : withZone;
  return { ok: true, content, hash: contentHashOf(content) };
}
