import { describe, expect, it } from 'vitest';
import { hooksSchema } from '../../../src/config/hooks-config-schema.js';
import { describeHooks } from '../../../src/doctor/describe-hooks.js';

describe('describeHooks (npm run doctor)', () => {
  const hooks = hooksSchema.parse({
    signed: { verify: 'github', secret: 'a-secret', prompt: 'p', deliverTo: { channel: 'chat', chatId: '1' } },
    open: { verify: 'none', allowUnsigned: true, prompt: 'p', deliverTo: { channel: 'chat', chatId: '1' } },
    lost: { verify: 'bearer', secret: 'token', prompt: 'p', deliverTo: { channel: 'nowhere', chatId: '1' } },
  });
  it('says per hook: secret set, unsigned on purpose, or a channel that does not exist', () => {
    expect(describeHooks({ hooks }, ['chat', 'cli'])).toEqual([
      { status: 'ok', subject: 'hook signed', text: 'POST /hooks/signed, verify github, secret set, answers go to chat:1' },
      { status: 'warn', subject: 'hook open', text: 'POST /hooks/open is unsigned (allowUnsigned: true): anyone who reaches the gateway can run it; answers go to chat:1' },
      { status: 'fail', subject: 'hook lost', text: 'delivers to nowhere:1, but no channel is named nowhere (channels: chat, cli)' },
    ]);
  });
});
