import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createId } from '../../../src/events/create-id.js';
import { createScriptedModelServer, type ScriptedModelServer } from '../../fakes/scripted-model-server.js';
import { startTestApp, type TestApp, waitFor } from '../../fakes/start-test-app.js';

let model: ScriptedModelServer;
let test: TestApp;

beforeAll(async () => {
  model = await createScriptedModelServer();
  test = await startTestApp({ mode: 'chat', environment: { OPENAI_BASE_URL: model.url } });
});
afterAll(async () => {
  await test.stop();
  await model.close();
});

describe('what the model is told about a message', () => {
  it('mentions attachments its channel cannot fetch, and the message being replied to', async () => {
    const id = createId();
    await test.app.bus.publish({
      type: 'message-received',
      id,
      traceId: id,
      at: new Date().toISOString(),
      channel: 'cli',
      chatId: 'local',
      sessionKey: 'cli:local',
      origin: 'user',
      unattended: false,
      sender: { id: 'local', displayName: 'me' },
      text: 'what is this?',
      media: [{ kind: 'photo', id: 'file-1' }, { kind: 'document', id: 'file-2', fileName: 'report.pdf' }],
      isGroup: false,
      mentioned: true,
      quoted: { messageId: '7', text: 'the earlier message', isFromBot: true },
    });
    await waitFor(() => test.terminalText().includes('echo: what is this?'), 'the answer');
    const sent = JSON.stringify(model.requests.at(-1)?.body?.messages?.at(-1));
    expect(sent).toContain('[Replying to: \\"the earlier message\\"]');
    expect(sent).toContain('[Photo: attached, but this channel cannot fetch files, so its content is unknown.]');
    expect(sent).toContain('[File \\"report.pdf\\": attached, but this channel cannot fetch files, so its content is unknown.]');
  });
});
