import { describe, expect, it } from 'vitest';
import type { ChannelAdapter } from '../../../src/channel/channel-adapter.js';
import type { WiredChannel } from '../../../src/channel/channel-context.js';
import { startUpFailure } from '../../../src/cli/start-up-failure.js';
import { EchoError } from '../../../src/errors/echo-error.js';
import type { Channel, Emit } from '../../../src/events/channel.js';
import { startTestApp } from '../../fakes/start-test-app.js';

/** A toy channel, as a newcomer writes one: it reports `reportedName` (the context's name unless told otherwise). */
function toyAdapter(name: string, options: { readonly reportedName?: string } = {}): ChannelAdapter & { readonly wiredWith: string[] } {
  const wiredWith: string[] = [];
  return {
    name,
    modes: ['server'],
    wiredWith,
    traits: (config) => ({ locale: config.agent.locale, streams: false }),
    async wire(context): Promise<WiredChannel> {
      wiredWith.push(context.channelName);
      const channelName = options.reportedName ?? context.channelName;
      let emit: Emit | undefined;
      const channel: Channel = {
        name: channelName,
        async start(given) {
          emit = given;
        },
        send: async () => ({ ok: true, messageIds: [] }),
        async stop() {
          emit = undefined;
        },
        status: () => ({ state: emit ? 'running' : 'stopped' }),
      };
      return { on: true, channel, detail: 'toy' };
    },
  };
}

describe('a channel names itself once, in its adapter', () => {
  it('hands each channel its adapter name through the wiring context', async () => {
    const tcp = toyAdapter('tcp');
    const test = await startTestApp({ channels: [tcp] });
    try {
      expect(tcp.wiredWith).toEqual(['tcp']);
      expect([...test.app.channels.keys()]).toContain('tcp');
      expect(test.app.startupLines).toContain('tcp: on (toy)');
    } finally {
      await test.stop();
    }
  });

  it('refuses two adapters with the same name at start-up, with a clear message', async () => {
    const failure = startTestApp({ channels: [toyAdapter('tcp'), toyAdapter('tcp')] });
    await expect(failure).rejects.toBeInstanceOf(EchoError);
    await expect(failure).rejects.toMatchObject({ code: 'channel-name-duplicate', message: expect.stringContaining('"tcp"') });
  });

  it('refuses an adapter that takes the name of the core scheduler', async () => {
    const failure = startTestApp({ channels: [toyAdapter('cron')] });
    await expect(failure).rejects.toMatchObject({ code: 'channel-name-duplicate', message: expect.stringContaining('"cron"') });
  });

  it('refuses a channel that reports a name other than its adapter’s, instead of dropping its replies', async () => {
    const failure = startTestApp({ channels: [toyAdapter('tcp', { reportedName: 'tcp-old' })] });
    await expect(failure).rejects.toMatchObject({ code: 'channel-name-mismatch', message: expect.stringMatching(/"tcp".*"tcp-old"/) });
  });

  it('npm start reports the refusal as one sentence with its code, not a stack trace', () => {
    const refused = startUpFailure(new EchoError('channel-name-duplicate', 'Two channel adapters are both named "tcp".'));
    expect(refused).toEqual({ ok: false, error: 'Two channel adapters are both named "tcp". [channel-name-duplicate]' });
    expect(() => startUpFailure(new Error('a bug'))).toThrow('a bug');
  });
});
