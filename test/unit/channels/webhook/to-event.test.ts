import { describe, expect, it } from 'vitest';
import { requestToEvent } from '../../../../channels/webhook/to-event.js';

describe('requestToEvent', () => {
  it('bills the turn to the configured client, not to the sender and chat the body names', () => {
    const now = new Date('2026-01-01T00:00:00Z');
    expect(requestToEvent({ chatId: 'c1', senderId: 's1', text: 'hi' }, { channel: 'webhook', runId: 'r1', now, clientName: 'erp' })).toMatchObject({ billedTo: 'erp', chatId: 'c1', sender: { id: 's1' } });
    expect(requestToEvent({ chatId: 'c1', text: 'hi' }, { channel: 'webhook', runId: 'r2', now })).toMatchObject({ billedTo: 'client' });
  });
});
