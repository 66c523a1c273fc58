// Hostile PDFs sent in a Telegram chat to the app running in this process: each would kill the process if parsed
// in it (V8's uncatchable `Fatal JavaScript invalid size error`, or running out of heap). Read in a child process
// within `media.pdf`'s limits, each becomes one line for the person and one note for the model, and the next
// message is answered.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TelegramClient } from 'telegram-test-api/lib/modules/telegramClient.js';
import { buildPdf, textContent } from '../../fakes/build-pdf.js';
import { createInflationBombPdf, createManyPagesPdf } from '../../fakes/pdf-bombs.js';
import { startTelegramScenario, type TelegramScenario } from '../../fakes/telegram-scenario.js';

// pdf.js walks 100,000 pages' tree for 5-13 s on a quiet machine before the page limit refuses it; on a loaded one
// the default 30 s could end it as a timeout instead. The limit under test is the page count, so the clock is wide.
const pdfLimits = 'media:\n  pdf:\n    timeoutSeconds: 120\n';
const answerWaitMs = 150_000;

let scenario: TelegramScenario;
let client: TelegramClient;

beforeAll(async () => {
  scenario = await startTelegramScenario({ allowFrom: '1001', yaml: `channels:\n  telegram:\n    limits:\n      perChatPerSecond: 100\n      perChatBurst: 100\n${pdfLimits}` });
  scenario.model.setFallback((_body, context) => ({ text: `answer: ${context.lastUserText}` }));
  client = scenario.client({ userId: 1001 });
});
afterAll(async () => {
  await scenario.stop();
});

/** Sends a PDF as a document and returns the line the person got and the text the model read. */
async function sendPdf(fileId: string, bytes: Buffer): Promise<{ readonly told: string; readonly modelRead: string }> {
  scenario.proxy.hostFile(fileId, { bytes });
  const before = scenario.modelRequests().length;
  const message = client.makeMessage('', { document: { file_id: fileId, file_name: `${fileId}.pdf`, mime_type: 'application/pdf', file_size: bytes.length } } as never) as Record<string, unknown>;
  delete message.text;
  await client.sendMessage(message as never);
  const answer = await scenario.waitForBotMessage((bot) => bot.text.startsWith('answer: ') && bot.text.includes(`${fileId}.pdf`), `the answer about ${fileId}`, answerWaitMs);
  const told = scenario.botMessages(1001).filter((bot) => bot.text.includes(`"${fileId}.pdf" could not be read`));
  expect(scenario.modelRequests().length).toBeGreaterThan(before);
  return { told: told.map((bot) => bot.text).join('\n'), modelRead: answer.text };
}

async function nextMessageIsAnswered(text: string): Promise<void> {
  await client.sendMessage(client.makeMessage(text));
  await scenario.waitForBotMessage((bot) => bot.text === `answer: ${text}`, `the answer to "${text}"`);
}

describe('PDF bombs: the agent stays up and answers the next message', () => {
  it('a 250 kB PDF that inflates to 256 MB', async () => {
    const { told, modelRead } = await sendPdf('bomb-256mb', createInflationBombPdf(256));
    expect(told).toBe('The PDF "bomb-256mb.pdf" could not be read: it expands past the 512 MB memory limit.');
    expect(modelRead).toContain('the PDF could not be read: expands past the 512 MB memory limit; the person was told.]');
    await nextMessageIsAnswered('still there after 256 MB?');
  }, 200_000);

  it('a 1 MB PDF that inflates to 1 GB', async () => {
    const { told, modelRead } = await sendPdf('bomb-1gb', createInflationBombPdf(1024));
    expect(told).toBe('The PDF "bomb-1gb.pdf" could not be read: it expands past the 512 MB memory limit.');
    expect(modelRead).toContain('the PDF could not be read: expands past the 512 MB memory limit; the person was told.]');
    await nextMessageIsAnswered('still there after 1 GB?');
  }, 200_000);

  it('a 16 MB PDF of 100,000 pages', async () => {
    const { told, modelRead } = await sendPdf('pages-100k', createManyPagesPdf(100_000));
    expect(told).toBe('The PDF "pages-100k.pdf" could not be read: it has more than 500 pages.');
    expect(modelRead).toContain('the PDF could not be read: 100000 pages, over the limit of 500; the person was told.]');
    await nextMessageIsAnswered('still there after 100,000 pages?');
  }, 200_000);

  it('a normal PDF after the bombs still yields its text', async () => {
    const { told, modelRead } = await sendPdf('normal', buildPdf([textContent('Invoice 42: total 17.50 EUR')]));
    expect(told).toBe('');
    expect(modelRead).toContain('a PDF of 1 page(s); its text follows.]\nInvoice 42: total 17.50 EUR');
  }, 60_000);
});
