// Memory isolation over WeChat (the real adapter over the mock puppet, the scripted model), in Chinese: what a room
// agreed never reaches a private chat, and what a person said in private never reaches the room, although it is the
// same person asking in both; the same for the archived exchanges.
import { afterEach, describe, expect, it } from 'vitest';
import type { FactList } from '../../../src/memory/create-fact-store.js';
import { factExtractionPrompt } from '../../../src/memory/fact-extraction-prompt.js';
import type { ScriptedRequestBody } from '../../fakes/scripted-model-server.js';
import { waitFor } from '../../fakes/start-test-app.js';
import { startWechatScenario, type WechatScenario } from '../../fakes/wechat-scenario.js';

const isExtraction = (body: ScriptedRequestBody | undefined) => body?.messages?.[0]?.content === factExtractionPrompt;

/** Records "我们的X是Y" as the chat's and "我的X是Y" as the speaker's. */
function extractChinese(body: ScriptedRequestBody): { text: string } {
  const text = String(body.messages?.[1]?.content ?? '').split('\n').slice(1).join('\n');
  const facts: { subject: string; statement: string; about: 'speaker' | 'chat' }[] = [];
  for (const match of text.matchAll(/我们的(\p{Script=Han}+?)是(\p{Script=Han}+)/gu)) facts.push({ subject: match[1] ?? '', statement: `大家的${match[1]}是${match[2]}。`, about: 'chat' });
  for (const match of text.matchAll(/(?<!们)我的(\p{Script=Han}+?)是(\p{Script=Han}+)/gu)) facts.push({ subject: match[1] ?? '', statement: `鲍勃的${match[1]}是${match[2]}。`, about: 'speaker' });
  return { text: JSON.stringify({ facts }) };
}

describe('memory isolation over WeChat', () => {
  let scenario: WechatScenario | undefined;
  afterEach(async () => {
    await scenario?.stop();
    scenario = undefined;
  });

  it("a room's facts never reach a private chat, and a person's private facts never reach the room", async () => {
    scenario = await startWechatScenario({
      environment: { WECHAT_ALLOW_FROM: 'bob' },
      configYaml: 'memory:\n  enabled: true\nchannels:\n  wechat:\n    rooms: [team@chatroom]\n',
    });
    const { world, model, testApp } = scenario;
    model.setFallback((body) => (isExtraction(body) ? extractChinese(body) : { text: '好的' }));
    const bob = world.contact('bob', 'Bob');
    const team = world.room('team@chatroom', 'Team', [bob]);

    world.say(bob, '我们的周会是周二', { room: team, mentionBot: true });
    await world.waitForSent('team@chatroom', 1);
    world.say(bob, '我的家乡是成都');
    await world.waitForSent('bob', 1);
    await testApp.app.bus.idle();
    const keys = (await testApp.app.store.namespace<FactList>('memory-facts').entries()).map(([key]) => key).sort();
    expect(keys).toEqual(['group|wechat|team@chatroom', 'person|wechat|bob']);

    world.say(bob, '周会是哪天？我的家乡在哪里？');
    await world.waitForSent('bob', 2);
    world.say(bob, '周会是哪天？我的家乡在哪里？', { room: team, mentionBot: true });
    await world.waitForSent('team@chatroom', 2);

    const prompts = model.requests.filter((request) => request.path === '/v1/chat/completions' && !isExtraction(request.body) && JSON.stringify(request.body?.messages).includes('周会是哪天'));
    expect(prompts).toHaveLength(2);
    const [privatePrompt, roomPrompt] = prompts.map((request) => String(request.body?.messages?.[0]?.content ?? ''));
    expect(privatePrompt).toContain('鲍勃的家乡是成都。');
    expect(privatePrompt).not.toContain('周二');
    expect(roomPrompt).toContain('大家的周会是周二。');
    expect(roomPrompt).not.toContain('成都');
    // The exchanges are archived too, each in its own scope: the room's never in a private prompt (above, "周二"),
    // bob's private one never in the room's ("成都"), although the questions share their characters.
    const exchangeKeys = async () => (await testApp.app.store.namespace('memory-exchanges').entries()).map(([key]) => key).sort();
    await waitFor(async () => (await exchangeKeys()).length === 2, 'both scopes archived');
    expect(await exchangeKeys()).toEqual(['group|wechat|team@chatroom', 'person|wechat|bob']);
  });
});
