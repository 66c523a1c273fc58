// Downloads stream to disk: a 20 MB file a person sends raises the agent's resident memory by less than 40 MB.
// The agent is the real process (`main.js start`), measured from /proc, so the fake Bot API serving the file
// from this test process does not count.
import { randomBytes } from 'node:crypto';
import { createWriteStream, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readProcessMemory } from '../../bench/read-process-memory.js';
import { ensureBuilt } from '../../fakes/run-compiled.js';
import { type AgentUnderFault, createAgentUnderFault, faultUser } from '../../faults/agent-under-fault.js';

const mebibyte = 1024 * 1024;
let world: AgentUnderFault | undefined;
beforeAll(() => ensureBuilt(), 180_000);
afterAll(async () => {
  await world?.close();
});

describe('downloads stream to disk', () => {
  it('a 20 MB file raises the agent process RSS by less than 40 MB while it is downloaded and read', async () => {
    world = await createAgentUnderFault();
    const current = world;
    const bigFile = join(current.workFolder, 'big.bin');
    // Written in chunks: the test itself must not hold the file in memory either.
    await new Promise<void>((resolve, reject) => {
      const out = createWriteStream(bigFile);
      for (let index = 0; index < 20; index += 1) out.write(randomBytes(mebibyte));
      out.end(resolve);
      out.on('error', reject);
    });
    current.proxy.hostFile('big-1', { path: bigFile });
    // Warm up the whole path once with a small file, so lazy loading is not counted as the download's.
    current.proxy.hostFile('small-1', { bytes: Buffer.from('warm up\n') });
    current.model.enqueue({ text: 'warm' }, { text: 'a big binary file' });
    const agent = await current.start();
    const client = current.client(faultUser);
    const send = async (fileId: string, name: string) => {
      const message = client.makeMessage('', { document: { file_id: fileId, file_name: name } } as never) as Record<string, unknown>;
      delete message.text;
      await client.sendMessage(message as never);
    };
    await send('small-1', 'warm.txt');
    await current.waitForBotMessage((message) => message.text === 'warm', 'the warm-up answer');

    const rss = () => readProcessMemory(agent.pid)?.rssMb ?? 0;
    const baseline = rss();
    let peak = baseline;
    const sampler = setInterval(() => {
      peak = Math.max(peak, rss());
    }, 5);
    await send('big-1', 'big.bin');
    await current.waitForBotMessage((message) => message.text === 'a big binary file', 'the answer');
    clearInterval(sampler);
    peak = Math.max(peak, rss());

    const userText = String([...(current.modelRequests().at(-1)?.body?.messages ?? [])].reverse().find((message) => message.role === 'user')?.content);
    expect(userText).toBe('[File "big.bin", application/octet-stream, 20 MB: its content is not read.]');
    const stored = join(current.dataDir, 'attachments');
    expect(readdirSync(stored).map((name) => statSync(join(stored, name)).size)).toContain(20 * mebibyte);
    process.stdout.write(`a 20 MB download raised the agent's RSS by ${(peak - baseline).toFixed(1)} MB (from ${baseline.toFixed(1)} MB)\n`);
    expect(peak - baseline).toBeLessThan(40);
  }, 120_000);
});
