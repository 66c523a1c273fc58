import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TelegramClient } from 'telegram-test-api/lib/modules/telegramClient.js';
import { createPdf, mp3Bytes, mp4Bytes, oggBytes, pngBytes, webpBytes } from '../../fakes/media-samples.js';
import { waitFor } from '../../fakes/start-test-app.js';
import { startTelegramScenario, type TelegramScenario } from '../../fakes/telegram-scenario.js';

type Part = { readonly type: string; readonly text?: string; readonly image_url?: { readonly url: string } };

let scenario: TelegramScenario;
let client: TelegramClient;

beforeAll(async () => {
  scenario = await startTelegramScenario({
    allowFrom: '1001',
    // Telegram's per-chat send limit (1 a second) is real but would only slow this file down.
    yaml: 'channels:\n  telegram:\n    albumWindowMs: 300\n    limits:\n      perChatPerSecond: 100\n      perChatBurst: 100\ntools:\n  profile: coding\n',
    environment: (model) => ({ ECHO_TRANSCRIPTION_BASE_URL: model.url, ECHO_TRANSCRIPTION_API_KEY: 'whisper-test-key' }),
  });
  client = scenario.client({ userId: 1001 });
});
afterAll(async () => {
  await scenario.stop();
});

/** A person sends a message with these fields (and no text unless given), as the Telegram app would. */
async function send(fields: Record<string, unknown>, from: TelegramClient = client): Promise<void> {
  const message = from.makeMessage(typeof fields.text === 'string' ? fields.text : '', fields as never) as Record<string, unknown>;
  if (fields.text === undefined) delete message.text;
  await from.sendMessage(message as never);
}

/** Sends, waits for the scripted answer in the chat, and returns the last user message the model received. */
async function turn(answer: string, fields: Record<string, unknown>): Promise<{ readonly content: unknown }> {
  scenario.model.enqueue({ text: answer });
  await send(fields);
  await scenario.waitForBotMessage((message) => message.text === answer, answer);
  const messages = scenario.modelRequests().at(-1)?.body?.messages ?? [];
  const user = [...messages].reverse().find((message) => message.role === 'user');
  return { content: user?.content };
}

const parts = (content: unknown): Part[] => (Array.isArray(content) ? (content as Part[]) : [{ type: 'text', text: String(content) }]);
const textOf = (content: unknown) =>
  parts(content)
    .filter((part) => part.type === 'text')
    .map((part) => part.text)
    .join('\n');
const dataUrl = (mediaType: string, bytes: Buffer) => `data:${mediaType};base64,${bytes.toString('base64')}`;

describe('telegram: what people send reaches the model', () => {
  it('a photo with a caption: the largest size as an image part beside the caption, stored, audited', async () => {
    scenario.proxy.hostFile('photo-large', { bytes: pngBytes });
    const { content } = await turn('a one-pixel picture', { caption: 'what is this?', photo: [{ file_id: 'photo-small', file_size: 10, width: 90, height: 90 }, { file_id: 'photo-large', file_size: pngBytes.length, width: 1, height: 1 }] });
    expect(parts(content)).toEqual([
      { type: 'text', text: 'what is this?' },
      { type: 'image_url', image_url: { url: dataUrl('image/png', pngBytes) } },
    ]);
    expect(scenario.proxy.callsOf('getFile').map((call) => call.body.file_id)).toEqual(['photo-large']);
    const attachments = join(scenario.testApp.dataDir, 'attachments');
    expect(readdirSync(attachments).map((name) => readFileSync(join(attachments, name)).equals(pngBytes))).toContain(true);
    const auditFile = join(scenario.testApp.dataDir, 'audit', 'audit.jsonl');
    const audit = await waitFor(() => (existsSync(auditFile) ? readFileSync(auditFile, 'utf8').split('\n').find((line) => line.includes('"media-downloaded"')) : undefined), 'the audit line');
    expect(JSON.parse(audit)).toMatchObject({ kind: 'media-downloaded', channel: 'telegram', userId: '1001', outcome: 'downloaded', arguments: { kind: 'photo', detectedType: 'image/png', bytes: pngBytes.length } });
  });

  it('a photo without a caption: the image alone, and the history keeps the attachment id, never the bytes', async () => {
    scenario.proxy.hostFile('photo-bare', { bytes: pngBytes });
    const { content } = await turn('just a picture', { photo: [{ file_id: 'photo-bare', file_size: pngBytes.length }] });
    expect(parts(content)).toEqual([{ type: 'image_url', image_url: { url: dataUrl('image/png', pngBytes) } }]);
    const stored = JSON.stringify(await scenario.testApp.app.store.namespace('sessions').get('telegram:1001'));
    expect(stored).toContain('"images":[{"mediaType":"image/png","file":"');
    expect(stored).not.toContain(pngBytes.toString('base64'));
  });

  it('an album of three photos is one turn with three images and the caption, answered once', async () => {
    for (const id of ['album-1', 'album-2', 'album-3']) scenario.proxy.hostFile(id, { bytes: pngBytes });
    const before = scenario.modelRequests().length;
    const { content } = await (async () => {
      scenario.model.enqueue({ text: 'three pictures' });
      await send({ media_group_id: 'trip-1', caption: 'our trip', photo: [{ file_id: 'album-1' }] });
      await send({ media_group_id: 'trip-1', photo: [{ file_id: 'album-2' }] });
      await send({ media_group_id: 'trip-1', photo: [{ file_id: 'album-3' }] });
      await scenario.waitForBotMessage((message) => message.text === 'three pictures', 'the album answer');
      const messages = scenario.modelRequests().at(-1)?.body?.messages ?? [];
      return { content: [...messages].reverse().find((message) => message.role === 'user')?.content };
    })();
    await scenario.testApp.app.bus.idle();
    expect(scenario.modelRequests().length - before).toBe(1);
    expect(textOf(content)).toBe('our trip');
    expect(parts(content).filter((part) => part.type === 'image_url')).toHaveLength(3);
    expect(scenario.botMessages(1001).filter((message) => message.text === 'three pictures')).toHaveLength(1);
  });

  it('a voice note is transcribed by the transcription endpoint and reaches the model as spoken text', async () => {
    scenario.proxy.hostFile('voice-1', { bytes: oggBytes });
    scenario.model.setTranscription((request) => ({ text: request.mediaType === 'audio/ogg' ? 'remind me to buy milk' : 'wrong type' }));
    const { content } = await turn('noted: milk', { voice: { file_id: 'voice-1', duration: 2, mime_type: 'audio/ogg', file_size: oggBytes.length } });
    expect(textOf(content)).toBe('[Voice message: the person said this aloud; transcript follows.]\nremind me to buy milk');
    expect(scenario.model.transcriptions.at(-1)).toMatchObject({ model: 'whisper-1', fileName: 'voice.ogg', mediaType: 'audio/ogg', bytes: oggBytes.length, authorization: 'Bearer whisper-test-key' });
  });

  it('an audio file and a video note are transcribed too (the video note as its MP4)', async () => {
    scenario.model.setTranscription((request) => ({ text: `heard ${request.fileName} as ${request.mediaType}` }));
    scenario.proxy.hostFile('audio-1', { bytes: mp3Bytes });
    const audio = await turn('a song', { audio: { file_id: 'audio-1', duration: 3, file_name: 'song.mp3', mime_type: 'audio/mpeg' } });
    expect(textOf(audio.content)).toBe('[Audio "song.mp3": the person said this aloud; transcript follows.]\nheard song.mp3 as audio/mpeg');
    scenario.proxy.hostFile('note-1', { bytes: mp4Bytes });
    const note = await turn('a video note', { video_note: { file_id: 'note-1', duration: 4, length: 240 } });
    expect(textOf(note.content)).toBe('[Video note: the person said this aloud; transcript follows.]\nheard video-note.mp4 as video/mp4');
  });

  it('a text document is inlined by its content (its name says nothing), a PDF made here has its text extracted', async () => {
    scenario.proxy.hostFile('notes-1', { bytes: Buffer.from('# Plan\n- ship media support\n') });
    const notes = await turn('a plan', { document: { file_id: 'notes-1', file_name: 'plan.unknown', mime_type: 'application/octet-stream' } });
    expect(textOf(notes.content)).toBe('[File "plan.unknown", text/plain, 28 B: a text file; its content follows between the markers.]\n<<<file\n# Plan\n- ship media support\n\nfile>>>');
    const pdf = createPdf('Invoice 42: total 17.50 EUR');
    scenario.proxy.hostFile('pdf-1', { bytes: pdf });
    const invoice = await turn('an invoice', { document: { file_id: 'pdf-1', file_name: 'invoice.pdf', mime_type: 'application/pdf' } });
    expect(textOf(invoice.content)).toContain('[File "invoice.pdf", application/pdf');
    expect(textOf(invoice.content)).toContain('a PDF of 1 page(s); its text follows.]\nInvoice 42: total 17.50 EUR');
  });

  it('a static sticker is an image with its emoji; a location and a contact are short text', async () => {
    scenario.proxy.hostFile('sticker-1', { bytes: webpBytes });
    const sticker = await turn('nice sticker', { sticker: { file_id: 'sticker-1', emoji: '👍', width: 512, height: 512, is_animated: false, is_video: false } });
    expect(parts(sticker.content)).toEqual([
      { type: 'text', text: '[Sticker 👍]' },
      { type: 'image_url', image_url: { url: dataUrl('image/webp', webpBytes) } },
    ]);
    const location = await turn('Berlin', { location: { latitude: 52.52, longitude: 13.405 } });
    expect(textOf(location.content)).toBe('[Shared location: 52.52, 13.405]');
    const contact = await turn('saved', { contact: { phone_number: '+49301234', first_name: 'Bob' } });
    expect(textOf(contact.content)).toBe('[Shared contact: Bob, phone +49301234]');
  });

  it('a file over the 20 MB bot limit is never fetched, and the person is told why in the chat', async () => {
    const getFiles = scenario.proxy.callsOf('getFile').length;
    const { content } = await turn('too big', { document: { file_id: 'huge-1', file_name: 'backup.zip', file_size: 30 * 1024 * 1024 } });
    expect(scenario.botMessages(1001).map((message) => message.text)).toContain("I can't open \"backup.zip\": bots cannot download files over 20 MB. Please send a smaller file or a link.");
    expect(textOf(content)).toBe('[File "backup.zip": over the 20 MB limit, not downloaded; the person was told.]');
    expect(scenario.proxy.callsOf('getFile')).toHaveLength(getFiles);
  });

  it("a stranger's photo is never downloaded", async () => {
    scenario.proxy.hostFile('stranger-photo', { bytes: pngBytes });
    await send({ photo: [{ file_id: 'stranger-photo' }] }, scenario.client({ userId: 2002 }));
    // Updates are handled in order: once a later message from an allowed person is answered, the stranger's was handled.
    await turn('after the stranger', { text: 'still there?' });
    expect(scenario.proxy.callsOf('getFile').filter((call) => call.body.file_id === 'stranger-photo')).toEqual([]);
    expect(scenario.botMessages(2002)).toEqual([]);
  });

  it('send_file: the model sends a workspace image as a photo and a text file as a document, with captions', async () => {
    const workspace = join(scenario.testApp.dataDir, 'workspace');
    writeFileSync(join(workspace, 'chart.png'), pngBytes);
    writeFileSync(join(workspace, 'report.txt'), 'all good\n');
    scenario.model.enqueue(
      { toolCalls: [{ name: 'send_file', arguments: { path: 'chart.png', caption: 'the chart' } }] },
      { toolCalls: [{ name: 'send_file', arguments: { path: 'report.txt' } }] },
      { toolCalls: [{ name: 'send_file', arguments: { path: '../audit/audit.jsonl' } }] },
      { text: 'sent both' },
    );
    await send({ text: 'send me the chart and the report' });
    await scenario.waitForBotMessage((message) => message.text === 'sent both', 'the final answer');
    expect(scenario.proxy.uploads.map(({ method, chatId, caption, fileName, bytes }) => ({ method, chatId, caption, fileName, bytes: bytes.length }))).toEqual([
      { method: 'sendPhoto', chatId: '1001', caption: 'the chart', fileName: 'chart.png', bytes: pngBytes.length },
      { method: 'sendDocument', chatId: '1001', caption: undefined, fileName: 'report.txt', bytes: 9 },
    ]);
    const toolResults = (scenario.modelRequests().at(-1)?.body?.messages ?? []).filter((message) => message.role === 'tool').map((message) => String(message.content));
    expect(toolResults.at(-1)).toContain('outside the workspace');
  });
});

describe('telegram: without transcription, and with a text-only model', () => {
  let plain: TelegramScenario;
  afterAll(async () => {
    await plain.stop();
  });

  it('a voice note gets a one-line answer without a turn; an image becomes a note and the person is told once', async () => {
    plain = await startTelegramScenario({ allowFrom: '1001', environment: () => ({ ECHO_MODEL_VISION: 'false' }) });
    const person = plain.client({ userId: 1001 });
    const sendFields = async (fields: Record<string, unknown>) => {
      const message = person.makeMessage('', fields as never) as Record<string, unknown>;
      if (fields.text === undefined) delete message.text;
      await person.sendMessage(message as never);
    };
    plain.proxy.hostFile('voice-2', { bytes: oggBytes });
    await sendFields({ voice: { file_id: 'voice-2', duration: 1 } });
    await plain.waitForBotMessage((message) => message.text.startsWith("I can't listen to voice messages"), 'the voice answer');
    await plain.testApp.app.bus.idle();
    expect(plain.modelRequests()).toHaveLength(0);
    expect(readdirSync(join(plain.testApp.dataDir, 'attachments'))).toHaveLength(1);

    plain.proxy.hostFile('photo-a', { bytes: pngBytes });
    plain.proxy.hostFile('photo-b', { bytes: pngBytes });
    plain.model.enqueue({ text: 'first' }, { text: 'second' });
    await sendFields({ caption: 'look', photo: [{ file_id: 'photo-a' }] });
    await plain.waitForBotMessage((message) => message.text === 'first', 'the first answer');
    await sendFields({ photo: [{ file_id: 'photo-b' }] });
    await plain.waitForBotMessage((message) => message.text === 'second', 'the second answer');
    const notices = plain.botMessages(1001).filter((message) => message.text.startsWith('The model I use cannot see images'));
    expect(notices).toHaveLength(1);
    const lastUser = [...(plain.modelRequests().at(-1)?.body?.messages ?? [])].reverse().find((message) => message.role === 'user');
    expect(typeof lastUser?.content).toBe('string');
    expect(String(lastUser?.content)).toContain('an image; this model cannot see images, so its content is unknown.');
  });
});
