// The limits of PDF reading as a person meets them in a chat: the text budget stops reading at a page (the model
// is told which pages were not read), and a PDF over the page limit is refused with one line and one note.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TelegramClient } from 'telegram-test-api/lib/modules/telegramClient.js';
import { buildPdf, textContent } from '../../fakes/build-pdf.js';
import { createManyPagesPdf } from '../../fakes/pdf-bombs.js';
import { startTelegramScenario, type TelegramScenario } from '../../fakes/telegram-scenario.js';

let scenario: TelegramScenario;
let client: TelegramClient;

beforeAll(async () => {
  scenario = await startTelegramScenario({
    allowFrom: '1001',
    yaml: 'media:\n  maxTextChars: 250\n  pdf:\n    maxPages: 10\nchannels:\n  telegram:\n    limits:\n      perChatPerSecond: 100\n      perChatBurst: 100\n',
  });
  scenario.model.setFallback((_body, context) => ({ text: `answer: ${context.lastUserText}` }));
  client = scenario.client({ userId: 1001 });
});
afterAll(async () => {
  await scenario.stop();
});

async function sendPdf(fileId: string, bytes: Buffer): Promise<string> {
  scenario.proxy.hostFile(fileId, { bytes });
  const message = client.makeMessage('', { document: { file_id: fileId, file_name: `${fileId}.pdf`, mime_type: 'application/pdf', file_size: bytes.length } } as never) as Record<string, unknown>;
  delete message.text;
  await client.sendMessage(message as never);
  const answer = await scenario.waitForBotMessage((bot) => bot.text.startsWith('answer: ') && bot.text.includes(`${fileId}.pdf`), `the answer about ${fileId}`);
  return answer.text;
}

describe('telegram: PDF limits', () => {
  it('reading stops at the page that spends media.maxTextChars, and the model is told the rest was not read', async () => {
    const pages = Array.from({ length: 8 }, (_, index) => textContent(`page ${index + 1} ${'x'.repeat(90)}`));
    const read = await sendPdf('long', buildPdf(pages));
    expect(read).toContain('a PDF of 8 page(s); its text follows.]\npage 1 x');
    expect(read).toContain('\n[cut here: the budget for file text ran out on page 3 of 8; later pages were not read.]');
    expect(read).not.toContain('page 4');
    expect(scenario.botMessages(1001).some((bot) => bot.text.includes('"long.pdf" could not be read'))).toBe(false);
  });

  it('a PDF over media.pdf.maxPages is refused: one line for the person, one note for the model', async () => {
    const read = await sendPdf('eleven', createManyPagesPdf(11));
    expect(read).toContain('the PDF could not be read: 11 pages, over the limit of 10; the person was told.]');
    expect(scenario.botMessages(1001).filter((bot) => bot.text === 'The PDF "eleven.pdf" could not be read: it has more than 10 pages.')).toHaveLength(1);
  });
});
