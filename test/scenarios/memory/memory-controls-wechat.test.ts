// The memory controls on WeChat (no buttons: the real adapter over the mock puppet, the scripted model), in Chinese:
// /memory lists numbered facts with their source, /forget <number> forgets the one of that number at once (audited),
// and /link joins a second account into the same person scope.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { factExtractionPrompt } from '../../../src/memory/fact-extraction-prompt.js';
import type { ScriptedRequestBody } from '../../fakes/scripted-model-server.js';
import { waitFor } from '../../fakes/start-test-app.js';
import { startWechatScenario, type WechatScenario } from '../../fakes/wechat-scenario.js';

const isExtraction = (body: ScriptedRequestBody | undefined) => body?.messages?.[0]?.content === factExtractionPrompt;

/** Records "我的X是Y" as the speaker's. */
function extractChinese(body: ScriptedRequestBody): { text: string } {
  const text = String(body.messages?.[1]?.content ?? '').split('\n').slice(1).join('\n');
  const facts = [...text.matchAll(/我的(\p{Script=Han}+?)是(\p{Script=Han}+)/gu)].map((match) => ({ subject: match[1] ?? '', statement: `他的${match[1]}是${match[2]}。`, about: 'speaker' }));
  return { text: JSON.stringify({ facts }) };
}

describe('memory controls over WeChat', () => {
  let scenario: WechatScenario | undefined;
  afterEach(async () => {
    await scenario?.stop();
    scenario = undefined;
  });

  it('/memory is numbered (no buttons); /forget <number> forgets that fact; /link joins a second account', async () => {
    scenario = await startWechatScenario({ environment: { WECHAT_ALLOW_FROM: 'bob,bob2' }, configYaml: 'memory:\n  enabled: true\n' });
    const { world, model, testApp } = scenario;
    model.setFallback((body) => (isExtraction(body) ? extractChinese(body) : { text: '好的' }));
    const bob = world.contact('bob', 'Bob');
    const bobsOtherAccount = world.contact('bob2', 'Bob2');

    world.say(bob, '我的家乡是成都');
    await world.waitForSent('bob', 1);
    world.say(bob, '我的爱好是爬山');
    await world.waitForSent('bob', 2);
    await testApp.app.bus.idle();

    world.say(bob, '/memory');
    const [, , listing = ''] = await world.waitForSent('bob', 3);
    expect(listing).toMatch(/^1\. 他的家乡是成都。（来自 Bob，\d{4}-\d{2}-\d{2}）$/m);
    expect(listing).toMatch(/^2\. 他的爱好是爬山。/m);
    expect(listing).toContain('/forget <编号>');

    world.say(bob, '/forget 1');
    const sent = await world.waitForSent('bob', 4);
    expect(sent[3]).toBe('已忘记 1 条事实。');
    world.say(bob, '我住在哪里？');
    await world.waitForSent('bob', 5);
    const prompt = String(model.requests.filter((request) => request.path === '/v1/chat/completions' && !isExtraction(request.body)).at(-1)?.body?.messages?.[0]?.content ?? '');
    expect(prompt).toContain('他的爱好是爬山。');
    expect(prompt).not.toContain('成都');
    const auditFile = join(testApp.dataDir, 'audit', 'audit.jsonl');
    await waitFor(() => existsSync(auditFile) && readFileSync(auditFile, 'utf8').includes('"numbers":"1"'), 'the memory-forgotten audit entry');

    world.say(bob, '/link');
    const [, , , , , issued = ''] = await world.waitForSent('bob', 6);
    const code = /你的关联码：([A-Z0-9]{8})/.exec(issued)?.[1] ?? '';
    expect(code).toHaveLength(8);
    world.say(bobsOtherAccount, `/link ${code}`);
    const [linked = ''] = await world.waitForSent('bob2', 1);
    expect(linked.startsWith('已关联')).toBe(true);
    world.say(bobsOtherAccount, '/memory');
    const [, otherListing = ''] = await world.waitForSent('bob2', 2);
    expect(otherListing).toContain('他的爱好是爬山。');
  });
});
