import { afterEach, describe, expect, it } from 'vitest';
import { messageTool } from '../../../tools/message-tool.js';
import { createFakeToolServices, type FakeToolServices } from '../../fakes/fake-tool-services.js';

describe('message tool', () => {
  let fake: FakeToolServices | undefined;
  afterEach(async () => fake?.cleanup());

  it('posts the text to the current conversation', async () => {
    fake = await createFakeToolServices();
    const outcome = await messageTool.execute(messageTool.input.parse({ text: 'Halfway there.' }), fake.context);
    expect(outcome.ok).toBe(true);
    expect(fake.sentMessages).toEqual(['Halfway there.']);
  });

  it('reports a failed delivery as an infrastructure failure', async () => {
    fake = await createFakeToolServices({ sendMessage: async () => ({ ok: false, error: 'chat not found', retryable: false }) });
    const outcome = await messageTool.execute(messageTool.input.parse({ text: 'Hello' }), fake.context);
    expect(outcome).toEqual({ ok: false, kind: 'infrastructure', error: expect.stringContaining('chat not found') });
  });

  it('refuses empty text at validation', () => {
    expect(messageTool.input.safeParse({ text: '' }).success).toBe(false);
  });
});
