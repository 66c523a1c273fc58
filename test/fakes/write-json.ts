import type { ServerResponse } from 'node:http';
import type { ScriptedStep } from './scripted-step.js';

/** Writes a JSON response (no-op when the client already went away). */
export function writeJson(
  response: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  if (response.destroyed || response.headersSent) return;
  response.writeHead(status, { 'content-type': 'application/json', ...headers });
  response.end(JSON.stringify(body));
}

/** A Retry-After header for the step, when it asks for one. */
export function retryAfterHeader(step: ScriptedStep): Record<string, string> {
  return step.retryAfterSeconds === undefined ? {} : { 'retry-after': String(step.retryAfterSeconds) };
}
