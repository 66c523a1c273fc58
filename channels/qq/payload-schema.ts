import { z } from 'zod';

/** Opcodes of the QQ Bot gateway and callback payloads (event-emit.md). */
export const qqOpcodes = {
  dispatch: 0,
  heartbeat: 1,
  identify: 2,
  resume: 6,
  reconnect: 7,
  invalidSession: 9,
  hello: 10,
  heartbeatAck: 11,
  callbackAck: 12,
  callbackValidation: 13,
} as const;

/** The payload every webhook callback and websocket frame carries: `{ id, op, d, s, t }`. */
export const payloadSchema = z.object({
  id: z.string().max(256).optional(),
  op: z.number().int().nonnegative(),
  d: z.unknown().optional(),
  s: z.number().int().nonnegative().optional(),
  t: z.string().max(64).optional(),
});

/** A validated payload. `d` is still unknown: each opcode and event type parses its own. */
export type QqPayload = z.infer<typeof payloadSchema>;

/** Parses a raw JSON payload; a body that is not JSON or not of the shape is a failure value, not a throw. */
export function parsePayload(raw: string): { readonly ok: true; readonly payload: QqPayload } | { readonly ok: false; readonly reason: string } {
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    return { ok: false, reason: 'the body is not JSON' };
  }
  const parsed = payloadSchema.safeParse(json);
  if (!parsed.success) return { ok: false, reason: `not a QQ payload: ${parsed.error.issues.map((issue) => `${issue.path.join('.') || 'body'} ${issue.message}`).join('; ')}` };
  return { ok: true, payload: parsed.data };
}
