import { createInterface } from 'node:readline';
import type { Readable, Writable } from 'node:stream';
import type { Channel, ChannelStatus, Emit } from '../../src/events/channel.js';
import type { Messages } from '../../src/i18n/messages.js';
import { renderForTerminal } from './render.js';
import { lineToEvent } from './to-event.js';

/** Where the terminal channel reads and writes. */
export type CliChannelOptions = {
  /** The channel's name, as the core hands it over. */
  readonly name: string;
  readonly input: Readable;
  readonly output: Writable;
  readonly messages: Messages;
  readonly userName: string;
  readonly now?: () => Date;
};

/** The terminal channel, plus a promise that settles when input ends (Ctrl+D or the end of piped stdin). */
export type CliChannel = Channel & { readonly inputEnded: Promise<void> };

/** Talks to the agent in the terminal: one message per line in, answers on stdout in order. */
export function createCliChannel(options: CliChannelOptions): CliChannel {
  let state: ChannelStatus = { state: 'stopped' };
  let markEnded: () => void = () => undefined;
  const inputEnded = new Promise<void>((resolve) => {
    markEnded = resolve;
  });
  let lines: ReturnType<typeof createInterface> | undefined;
  // Lines are emitted one after another so the bus sees them in typed order.
  let emitting: Promise<unknown> = Promise.resolve();

  return {
    name: options.name,
    inputEnded,
    async start(emit: Emit) {
      state = { state: 'running' };
      lines = createInterface({ input: options.input, terminal: false });
      lines.on('line', (line) => {
        const event = lineToEvent(line, { channel: options.name, userName: options.userName, now: options.now?.() ?? new Date() });
        if (!event) return;
        emitting = emitting.then(async () => {
          const result = await emit(event);
          if (!result.accepted) options.output.write(`${options.messages.busy}\n`);
        });
      });
      lines.on('close', () => {
        void emitting.then(markEnded);
      });
    },
    async send(event) {
      const text = renderForTerminal(event, options.messages);
      if (text !== undefined) options.output.write(`${text}\n`);
      return { ok: true };
    },
    async stop() {
      lines?.close();
      state = { state: 'stopped' };
    },
    status: () => state,
  };
}
