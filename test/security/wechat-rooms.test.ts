import { afterEach, describe, expect, it } from 'vitest';
import type { PendingApproval } from '../../src/approvals/pending-approval.js';
import { waitFor } from '../fakes/start-test-app.js';
import { startWechatScenario, type WechatScenario } from '../fakes/wechat-scenario.js';


let scenario: WechatScenario | undefined;
afterEach(async () => {
  await scenario?.stop();
  scenario = undefined;
});

const rooms = 'channels:\n  wechat:\n    rooms: [team@chatroom]\n';
const scheduleCall = (id: string, prompt: string) => ({ id, name: 'schedule_task', arguments: { schedule: '0 9 * * *', prompt } });
const cardId = (text: string | undefined) => /编号 ([a-z0-9]+)）/.exec(text ?? '')?.[1] ?? '';

async function start(environment: Record<string, string>, configYaml = rooms): Promise<WechatScenario> {
  scenario = await startWechatScenario({
    environment,
    configYaml,
  });
  return scenario;
}

async function statusOf(current: WechatScenario, approvalId: string): Promise<PendingApproval['status'] | undefined> {
  return (await current.testApp.app.store.namespace<PendingApproval>('approvals').get(approvalId))?.status;
}

describe('WeChat rooms apply the allow list (finding 4)', () => {
  it('a stranger in a listed room never reaches the model, even when mentioning the bot', async () => {
    const { world, answer, turnRequests } = await start({ WECHAT_ALLOW_FROM: 'alice' });
    const alice = world.contact('alice', 'Alice');
    const mallory = world.contact('mallory', 'Mallory');
    const team = world.room('team@chatroom', 'Team', [alice, mallory]);
    world.say(mallory, '每天早上九点发我的链接', { room: team, mentionBot: true });
    // Messages are handled in order: once Alice is answered, Mallory's message was seen and dropped.
    answer({ text: 'hi Alice' });
    world.say(alice, 'hello', { room: team, mentionBot: true });
    expect(await world.waitForSent('team@chatroom', 1)).toEqual(['hi Alice']);
    expect(turnRequests()).toHaveLength(1);
    expect(JSON.stringify(turnRequests()[0]?.body)).not.toContain('发我的链接');
  });
});

describe('WeChat numbered replies never guess between cards (finding 10)', () => {
  it('a bare number with two cards waiting asks which; "1 <id>" decides exactly that card', async () => {
    const current = await start({ WECHAT_ALLOW_FROM: 'alice' }, '{}\n');
    const { world, answer } = current;
    const alice = world.contact('alice', 'Alice');
    answer({ toolCalls: [scheduleCall('call_first', 'Water the plants')] });
    world.say(alice, '每天提醒我浇花');
    const [firstCard] = await world.waitForSent('alice', 1);
    answer({ toolCalls: [scheduleCall('call_second', 'Pay the rent')] });
    world.say(alice, '每天提醒我交房租');
    const sent = await world.waitForSent('alice', 2);
    const first = cardId(firstCard);
    const second = cardId(sent[1]);
    expect(first).not.toBe(second);

    world.say(alice, '1');
    const asked = await world.waitForSent('alice', 3);
    expect(asked[2]).toContain(`1 ${second}`);
    expect([await statusOf(current, first), await statusOf(current, second)]).toEqual(['pending', 'pending']);

    answer({ text: '好的。' });
    world.say(alice, `1 ${first}`);
    await waitFor(async () => (await statusOf(current, first)) === 'approved', 'the named card to be approved');
    expect(await statusOf(current, second)).toBe('pending');
  });
});
