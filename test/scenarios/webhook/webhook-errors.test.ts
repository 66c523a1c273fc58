import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createScriptedModelServer, type ScriptedModelServer } from '../../fakes/scripted-model-server.js';
import { startTestApp, type TestApp } from '../../fakes/start-test-app.js';
import { gatewayOf, getPath, postSigned } from '../../fakes/webhook-client.js';
import { postLargeBody, postWholeBodyThenRead } from '../../fakes/webhook-large-body.js';

const secret = 'errors-secret';
const twoMebibytes = 2 * 1024 * 1024;
let model: ScriptedModelServer;
let test: TestApp;
let baseUrl: string;

beforeAll(async () => {
  model = await createScriptedModelServer();
  test = await startTestApp({ environment: { OPENAI_BASE_URL: model.url, WEBHOOK_SECRET: secret, GATEWAY_PORT: '0' } });
  baseUrl = gatewayOf(test.app).baseUrl;
});
afterAll(async () => {
  await test.stop();
  await model.close();
});

const valid = { chatId: 'errors', text: 'hello' };
const errorCode = (body: unknown) => (body as { error?: { code?: string } }).error?.code;

describe('webhook error answers: JSON { error: { code, message } }, and the server keeps serving', () => {
  it('400 for a body that is not JSON', async () => {
    const answer = await postSigned({ baseUrl, secret, body: '{"chatId": "x", "text": ' });
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ error: { code: 'json-malformed', message: expect.any(String) } });
  });

  it('401 without signature headers, with a wrong signature, and with a stale or future timestamp', async () => {
    const missing = await postSigned({ baseUrl, secret, body: valid, signature: null });
    expect([missing.status, errorCode(missing.body)]).toEqual([401, 'signature-missing']);

    const wrong = await postSigned({ baseUrl, secret, body: valid, signature: `sha256=${'0'.repeat(64)}` });
    expect([wrong.status, errorCode(wrong.body)]).toEqual([401, 'signature-invalid']);

    const otherSecret = await postSigned({ baseUrl, secret: 'not-the-secret', body: valid });
    expect([otherSecret.status, errorCode(otherSecret.body)]).toEqual([401, 'signature-invalid']);

    const nowSeconds = Math.floor(Date.now() / 1000);
    const stale = await postSigned({ baseUrl, secret, body: valid, timestamp: nowSeconds - 400 });
    expect([stale.status, errorCode(stale.body)]).toEqual([401, 'timestamp-out-of-range']);
    const future = await postSigned({ baseUrl, secret, body: valid, timestamp: nowSeconds + 400 });
    expect([future.status, errorCode(future.body)]).toEqual([401, 'timestamp-out-of-range']);
    expect(model.requests.filter((request) => request.path === '/v1/chat/completions')).toHaveLength(0);
  });

  it('413 for a 2 MiB body, refused without reading it all, and the server serves on', async () => {
    const timestamp = String(Math.floor(Date.now() / 1000));
    const headers = { 'x-echo-timestamp': timestamp, 'x-echo-signature': `sha256=${'1'.repeat(64)}` };
    const url = `${baseUrl}/v1/messages`;
    // Declared 2 MiB, only 64 KiB sent: the answer comes from the Content-Length alone.
    const declared = await postLargeBody({ url, sizeBytes: twoMebibytes, chunked: false, pauseAfterBytes: 64 * 1024, headers });
    expect(declared.status).toBe(413);
    expect(errorCode(JSON.parse(declared.body))).toBe('body-too-large');
    // Chunked, no length: reading stops just past 1 MiB; the sender never has to send the second MiB.
    const chunked = await postLargeBody({ url, sizeBytes: twoMebibytes, chunked: true, pauseAfterBytes: 1024 * 1024 + 128 * 1024, headers });
    expect(chunked.status).toBe(413);
    expect(chunked.bytesWritten).toBeLessThan(twoMebibytes);
    // Sent in full, as an ordinary client does: still a clean 413, not a dropped connection.
    const whole = await postLargeBody({ url, sizeBytes: twoMebibytes, chunked: false, headers });
    expect(whole.status).toBe(413);
    const fetched = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: Buffer.alloc(twoMebibytes, 'a') });
    expect(fetched.status).toBe(413);
    expect(await fetched.json()).toMatchObject({ error: { code: 'body-too-large' } });
    expect((await getPath(baseUrl, '/healthz')).status).toBe(200);
  });

  it('413 for a 50 MB body, received by a client that writes the whole body before it reads', async () => {
    const timestamp = String(Math.floor(Date.now() / 1000));
    const headers = { 'x-echo-timestamp': timestamp, 'x-echo-signature': `sha256=${'1'.repeat(64)}` };
    // Closing at once with the rest unread would reset the connection under the writer, which then sees no answer.
    const answer = await postWholeBodyThenRead({ url: `${baseUrl}/v1/messages?wait=true`, sizeBytes: 50 * 1024 * 1024, headers });
    expect(answer.status).toBe(413);
    expect(errorCode(JSON.parse(answer.body))).toBe('body-too-large');
    expect((await getPath(baseUrl, '/healthz')).status).toBe(200);
  });

  it('415 for a body that is not sent as JSON', async () => {
    const answer = await postSigned({ baseUrl, secret, body: JSON.stringify(valid), contentType: 'text/plain' });
    expect([answer.status, errorCode(answer.body)]).toEqual([415, 'unsupported-media-type']);
  });

  it('422 for the wrong shape, naming each field path', async () => {
    const answer = await postSigned({ baseUrl, secret, body: { chatId: '', text: 5, callbackUrl: 'http://example.com/hook' } });
    expect(answer.status).toBe(422);
    const error = (answer.body as { error: { code: string; message: string; fields: { path: string }[] } }).error;
    expect(error.code).toBe('invalid-request');
    expect(error.fields.map((field) => field.path).sort()).toEqual(['callbackUrl', 'chatId', 'text']);
    expect(error.message).toContain('callbackUrl');
    const tooLong = await postSigned({ baseUrl, secret, body: { chatId: 'x'.repeat(129), text: 'y'.repeat(32_001) } });
    expect((tooLong.body as { error: { fields: { path: string }[] } }).error.fields.map((field) => field.path).sort()).toEqual(['chatId', 'text']);
  });

  it('403 for approval commands: a webhook caller never decides approvals', async () => {
    const answer = await postSigned({ baseUrl, secret, body: { chatId: 'errors', senderId: '12345', text: '/approve abcdef' } });
    expect([answer.status, errorCode(answer.body)]).toEqual([403, 'command-not-allowed']);
  });

  it('404 and 405 as JSON for paths and methods that are not served', async () => {
    const missing = await getPath(baseUrl, '/nothing-here');
    expect([missing.status, errorCode(missing.body)]).toEqual([404, 'not-found']);
    const wrongMethod = await getPath(baseUrl, '/v1/messages');
    expect([wrongMethod.status, errorCode(wrongMethod.body)]).toEqual([405, 'method-not-allowed']);
  });

  it('still serves a signed round trip after all of the above', async () => {
    model.enqueue({ text: 'still here' });
    const answer = await postSigned({ baseUrl, secret, body: { chatId: 'after-errors', text: 'are you there?' }, query: '?wait=true' });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ reply: 'still here' });
  });
});
