import { describe, expect, it } from 'vitest';
import { decideAccess } from '../../../../channels/telegram/decide-access.js';

const lists = { allowFrom: ['1'], approvers: ['2'], groups: ['-10'] };
const privateFrom = (senderId: string) => ({ chatId: senderId, senderId, isGroup: false, mentioned: true });

describe('telegram access decision', () => {
  it('lets only allowFrom users send messages; strangers are ignored, or told their id when nobody is allowed yet', () => {
    expect(decideAccess(privateFrom('1'), 'message', lists).kind).toBe('allow');
    expect(decideAccess(privateFrom('2'), 'message', lists).kind).toBe('ignore');
    expect(decideAccess(privateFrom('9'), 'message', { ...lists, allowFrom: [] }).kind).toBe('stranger-notice');
  });

  it('lets approvers press buttons and type the approval commands even when they are not in allowFrom, and refuses anyone else', () => {
    expect(decideAccess(privateFrom('2'), 'press', lists).kind).toBe('allow');
    expect(decideAccess({ ...privateFrom('2'), isApprovalCommand: true }, 'message', lists).kind).toBe('allow');
    expect(decideAccess({ ...privateFrom('9'), isApprovalCommand: true }, 'message', lists).kind).toBe('ignore');
    expect(decideAccess(privateFrom('1'), 'press', lists).kind).toBe('allow');
    expect(decideAccess(privateFrom('9'), 'press', lists).kind).toBe('refuse-press');
  });

  it('answers in listed groups only, when addressed, and only for allowed users', () => {
    expect(decideAccess({ chatId: '-10', senderId: '1', isGroup: true, mentioned: true }, 'message', lists).kind).toBe('allow');
    expect(decideAccess({ chatId: '-10', senderId: '1', isGroup: true, mentioned: false }, 'message', lists).kind).toBe('ignore');
    expect(decideAccess({ chatId: '-11', senderId: '1', isGroup: true, mentioned: true }, 'message', lists).kind).toBe('ignore');
    expect(decideAccess({ chatId: '-10', senderId: '9', isGroup: true, mentioned: true }, 'message', { ...lists, allowFrom: [] }).kind).toBe('ignore');
  });
});
