import { describe, expect, it } from 'vitest';
import { type CallbackAction, encodeCallbackData, parseCallbackData } from '../../../../channels/telegram/callback-data.js';
import { createShortId } from '../../../../src/events/create-id.js';

describe('telegram callback data', () => {
  it('round-trips every approval choice and question option within 64 bytes', () => {
    const approvalId = createShortId();
    const actions: CallbackAction[] = [
      ...(['once', 'session', 'always', 'deny'] as const).map((choice) => ({ kind: 'approval' as const, approvalId, choice })),
      { kind: 'question', questionId: createShortId(), optionIndex: 0 },
      { kind: 'question', questionId: 'q'.repeat(48), optionIndex: 99 },
    ];
    for (const action of actions) {
      const data = encodeCallbackData(action);
      expect(Buffer.byteLength(data)).toBeLessThanOrEqual(64);
      expect(data.startsWith('e1:')).toBe(true);
      expect(parseCallbackData(data)).toEqual(action);
    }
  });

  it('parses strictly: other versions, unknown codes, extra parts and long data are unknown', () => {
    for (const data of ['e0:a:abc:o', 'e1:a:abc:x', 'e1:a:abc:o:extra', 'e1:q:abc:-1', 'e1:q:abc:007', `e1:a:${'a'.repeat(60)}:o`, 'e1:a:ab c:o', '', undefined]) {
      expect(parseCallbackData(data)).toBeUndefined();
    }
  });

  it('refuses to encode ids that would not fit', () => {
    expect(() => encodeCallbackData({ kind: 'approval', approvalId: 'x'.repeat(49), choice: 'once' })).toThrow(/callback data/);
    expect(() => encodeCallbackData({ kind: 'question', questionId: 'q1', optionIndex: 100 })).toThrow(/callback data/);
  });

  it("a fact's Forget button: e1:m:<fact id> (a UUID fits), parsed strictly", () => {
    const action = { kind: 'memory-forget' as const, factId: '0b6f3c1e-8a2d-4f5b-9c7e-1d2a3b4c5d6e' };
    const data = encodeCallbackData(action);
    expect(data).toBe('e1:m:0b6f3c1e-8a2d-4f5b-9c7e-1d2a3b4c5d6e');
    expect(Buffer.byteLength(data)).toBeLessThanOrEqual(64);
    expect(parseCallbackData(data)).toEqual(action);
    for (const forged of ['e1:m:', 'e1:m:../x', 'e1:m:a:b', `e1:m:${'a'.repeat(49)}`]) expect(parseCallbackData(forged)).toBeUndefined();
  });
});
