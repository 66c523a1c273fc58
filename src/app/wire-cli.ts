import type { Readable, Writable } from 'node:stream';
import { createCliChannel } from '../../channels/cli/index.js';
import type { ChannelContext, WiredChannel } from './channel-context.js';

/** The terminal channel for `npm run chat`. */
export function wireCli(context: ChannelContext, terminal: { readonly input: Readable; readonly output: Writable }, userName: string): { wired: WiredChannel; inputEnded: Promise<void> } {
  const channel = createCliChannel({ input: terminal.input, output: terminal.output, messages: context.messagesFor('cli'), userName });
  return { wired: { on: true, channel, detail: 'terminal' }, inputEnded: channel.inputEnded };
}
