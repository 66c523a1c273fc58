import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { toAnthropicConversation } from '../../../src/agent/providers/anthropic/to-anthropic-conversation.js';
import { createOpenAiProvider } from '../../../src/agent/providers/openai/index.js';
import { createAttachmentStore } from '../../../src/media/attachment-store.js';
import { createImageInputModel, createVisionState } from '../../../src/media/create-image-input-model.js';
import type { ChatMessage } from '../../../src/model/chat-message.js';
import { pngBytes } from '../../fakes/media-samples.js';
import { createScriptedModelServer, type ScriptedModelServer } from '../../fakes/scripted-model-server.js';

describe('image input', () => {
  let server: ScriptedModelServer | undefined;
  let folder: string | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
    if (folder) rmSync(folder, { recursive: true, force: true });
  });

  it('Anthropic gets image blocks before the text; an image not loaded is named in text', () => {
    const conversation = toAnthropicConversation([
      { role: 'user', content: 'what is it?', images: [{ mediaType: 'image/png', file: 'a', data: 'AAAA' }, { mediaType: 'image/jpeg', file: 'b', name: 'old.jpg' }] },
    ]);
    expect(conversation.messages).toEqual([
      {
        role: 'user',
        content: [
          { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'AAAA' } },
          { type: 'text', text: '[An earlier image (old.jpg) is not shown again (older images are not re-sent, and kept files are purged).]' },
          { type: 'text', text: 'what is it?' },
        ],
      },
    ]);
  });

  it('loads the bytes from the attachment store per request; a provider that refuses images is asked again without them, and from then on', async () => {
    server = await createScriptedModelServer();
    folder = mkdtempSync(join(tmpdir(), 'echo-image-input-'));
    const store = createAttachmentStore({ directory: folder, keepMs: 60_000 });
    const reserved = await store.reserve();
    writeFileSync(reserved.path, pngBytes);
    const vision = createVisionState(true);
    const provider = createOpenAiProvider({ name: 'scripted', apiKey: 'k', baseUrl: server.url, model: 'm', timeoutMs: 5000, stream: false });
    const model = createImageInputModel(provider, { store, vision });
    const messages: ChatMessage[] = [{ role: 'user', content: 'see?', images: [{ mediaType: 'image/png', file: reserved.id, name: 'dot.png' }] }];

    server.enqueue({ text: 'a dot' });
    expect(await model.complete({ messages, tools: [] })).toMatchObject({ ok: true, answer: { text: 'a dot' } });
    expect(server.requests.at(-1)?.body?.messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'see?' }, { type: 'image_url', image_url: { url: `data:image/png;base64,${pngBytes.toString('base64')}` } }] },
    ]);

    server.enqueue({ status: 400, errorMessage: 'This model does not support image input' }, { text: 'I cannot see it' });
    expect(await model.complete({ messages, tools: [] })).toMatchObject({ ok: true, answer: { text: 'I cannot see it' } });
    const textOnly = { role: 'user', content: 'see?\n[An image (dot.png) was sent; this model cannot see images, so its content is unknown.]' };
    expect(server.requests.at(-1)?.body?.messages).toEqual([textOnly]);
    expect(vision.canSeeImages()).toBe(false);

    server.enqueue({ text: 'still text only' });
    await model.complete({ messages, tools: [] });
    expect(server.requests.at(-1)?.body?.messages).toEqual([textOnly]);
  });

  it('purges files older than their lifetime and never reads outside its folder', async () => {
    folder = mkdtempSync(join(tmpdir(), 'echo-attachments-'));
    let now = new Date('2026-01-01T00:00:00Z');
    const store = createAttachmentStore({ directory: folder, keepMs: 60 * 60_000, now: () => now });
    const kept = await store.reserve();
    writeFileSync(kept.path, 'x');
    expect(await store.purge()).toBe(0);
    now = new Date(Date.now() + 2 * 60 * 60_000);
    expect(await store.purge()).toBe(1);
    expect(await store.read(kept.id)).toBeUndefined();
    expect([store.pathOf('../secret'), store.pathOf('/etc/passwd')]).toEqual([undefined, undefined]);
  });
});
