import type { PassThrough } from 'node:stream';
import { describeChannelContract } from './channel-contract.js';
import type { ChannelHarness } from './channel-harness.js';
import { doctorLinesOf } from './doctor-lines-of.js';

/** The terminal (`npm run chat`): lines typed on its input stream, what it printed on its output, one text per start. */
const cliHarness: ChannelHarness = {
  channelName: 'cli',
  secret: { none: 'the terminal holds no secret of its own' },
  doctorLines: (config) => doctorLinesOf(config),
  async startPlatform() {
    const printed: string[] = [];
    let input: PassThrough | undefined;
    let typed = 0;
    return {
      appSetup: () => ({ mode: 'chat', environment: {} }),
      async connected(started) {
        const run = printed.push('') - 1;
        input = started.terminalInput;
        started.terminalOutput.on('data', (chunk: Buffer) => {
          printed[run] += chunk.toString('utf8');
        });
      },
      async sendAsUser(text) {
        if (!input) throw new Error('the app has not started yet');
        typed += 1;
        input.write(`${text}\n`);
        return { text, platformId: `line-${typed}` };
      },
      access: { kind: 'one-person', reason: 'the terminal is the one person at the keyboard of `npm run chat`' },
      approvals: { style: 'numbered' },
      redelivery: { kind: 'never', reason: 'a typed line is read once; nothing delivers it again' },
      botMessages: () => printed.map((text, run) => ({ platformId: `run-${run}`, text })),
      stop: async () => undefined,
    };
  },
};

describeChannelContract(cliHarness);
