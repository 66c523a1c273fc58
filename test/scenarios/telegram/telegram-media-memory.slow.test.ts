import { randomBytes } from 'node:crypto';
import { createWriteStream, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startTelegramScenario, type TelegramScenario } from '../../fakes/telegram-scenario.js';

const mebibyte = 1024 * 1024;
let scenario: TelegramScenario | undefined;
let folder: string | undefined;
afterAll(async () => {
  await scenario?.stop();
  if (folder) rmSync(folder, { recursive: true, force: true });
});

describe('downloads stream to disk', () => {
  it('a 20 MB file raises the process RSS by less than 40 MB while it is downloaded and read', async () => {
    folder = mkdtempSync(join(tmpdir(), 'echo-big-file-'));
    const bigFile = join(folder, 'big.bin');
    // Written in chunks: the test itself must not hold the file in memory either.
    await new Promise<void>((resolve, reject) => {
      const out = createWriteStream(bigFile);
      for (let index = 0; index < 20; index += 1) out.write(randomBytes(mebibyte));
      out.end(resolve);
      out.on('error', reject);
    });
    scenario = await startTelegramScenario({ allowFrom: '1001' });
    scenario.proxy.hostFile('big-1', { path: bigFile });
    const client = scenario.client({ userId: 1001 });
    // Warm up the whole path once with a small file, so lazy loading is not counted as the download's.
    scenario.proxy.hostFile('small-1', { bytes: Buffer.from('warm up\n') });
    scenario.model.enqueue({ text: 'warm' }, { text: 'a big binary file' });
    const send = async (fileId: string, name: string) => {
      const message = client.makeMessage('', { document: { file_id: fileId, file_name: name } } as never) as Record<string, unknown>;
      delete message.text;
      await client.sendMessage(message as never);
    };
    await send('small-1', 'warm.txt');
    await scenario.waitForBotMessage((message) => message.text === 'warm', 'the warm-up answer');

    const baseline = process.memoryUsage.rss();
    let peak = baseline;
    const sampler = setInterval(() => {
      peak = Math.max(peak, process.memoryUsage.rss());
    }, 5);
    await send('big-1', 'big.bin');
    await scenario.waitForBotMessage((message) => message.text === 'a big binary file', 'the answer');
    clearInterval(sampler);
    peak = Math.max(peak, process.memoryUsage.rss());

    const userText = String([...(scenario.modelRequests().at(-1)?.body?.messages ?? [])].reverse().find((message) => message.role === 'user')?.content);
    expect(userText).toBe('[File "big.bin", application/octet-stream, 20 MB: its content is not read.]');
    const stored = join(scenario.testApp.dataDir, 'attachments');
    expect(statSync(bigFile).size).toBe(20 * mebibyte);
    expect(readdirSync(stored).map((name) => statSync(join(stored, name)).size)).toContain(20 * mebibyte);
    // The fake Bot API serves the file from this same process, so its own buffers count too: the agent's share is smaller.
    expect((peak - baseline) / mebibyte).toBeLessThan(40);
  });
});
