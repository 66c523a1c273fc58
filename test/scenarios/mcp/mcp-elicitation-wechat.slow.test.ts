import { afterEach, describe, expect, it } from 'vitest';
import { waitFor } from '../../fakes/start-test-app.js';
import { gatewayOf, getPath } from '../../fakes/webhook-client.js';
import { startWechatScenario, toolResultsIn, type WechatScenario } from '../../fakes/wechat-scenario.js';
import { createElicitationServerLog, type ElicitationServerLog, elicitationYaml } from './elicitation-test-server.js';

describe('MCP elicitation over WeChat: numbered replies for choices, typed values for the rest', () => {
  let scenario: WechatScenario | undefined;
  let log: ElicitationServerLog;
  afterEach(async () => {
    await scenario?.stop();
    scenario = undefined;
    log.remove();
  });

  it('answers each field by its number or its value, and the call completes once with the answers', async () => {
    log = createElicitationServerLog();
    scenario = await startWechatScenario({ environment: { WECHAT_ALLOW_FROM: 'alice' }, configYaml: elicitationYaml({ log }) });
    const current = scenario;
    await waitFor(async () => ((await getPath(gatewayOf(current.testApp.app).baseUrl, '/healthz')).body as { mcp?: Record<string, { state: string }> }).mcp?.asker?.state === 'up', 'the asking server up');
    const { world, answer } = current;
    const alice = world.contact('alice', 'Alice');
    answer({ toolCalls: [{ id: 'call_coffee', name: 'asker__order_coffee', arguments: {} }] });
    world.say(alice, 'order me a coffee');

    const [size] = await world.waitForSent('alice', 1);
    // The chat's language (WeChat defaults to zh-CN); the server's own words are shown as it sent them.
    expect(size).toContain('MCP 服务「asker」询问：How would you like your coffee?');
    expect(size).toContain('1. small\n2. large\n3. 拒绝\n4. 取消');
    world.say(alice, '2');
    const sugar = (await world.waitForSent('alice', 2))[1];
    expect(sugar).toContain('1. 是\n2. 否');
    world.say(alice, '1');
    const cups = (await world.waitForSent('alice', 3))[2];
    // A typed field has no numbered list: the number typed is the value.
    expect(cups).toContain('(3/4) Cups');
    expect(cups).not.toMatch(/^1\. /m);
    world.say(alice, '3');
    const name = (await world.waitForSent('alice', 4))[3];
    expect(name).toContain('(4/4) Name on the cup（可选）');
    answer({ text: '咖啡已经点好了。' });
    world.say(alice, 'Ada');

    const sent = await world.waitForSent('alice', 5);
    expect(sent[4]).toBe('咖啡已经点好了。');
    expect(toolResultsIn(current.turnRequests().at(-1)).get('call_coffee')).toBe('ordered: {"size":"large","sugar":true,"cups":3,"name":"Ada"}');
    expect(log.entries().filter((entry) => entry.event === 'completed')).toEqual([expect.objectContaining({ action: 'accept', content: { size: 'large', sugar: true, cups: 3, name: 'Ada' } })]);
  });
});
