import { afterEach, describe, expect, it } from 'vitest';
import type { PendingApproval } from '../../../src/approvals/pending-approval.js';
import { waitFor } from '../../fakes/start-test-app.js';
import { scriptedExplanation, startWechatScenario, toolResultsIn, type WechatScenario } from '../../fakes/wechat-scenario.js';


let scenario: WechatScenario | undefined;
afterEach(async () => {
  await scenario?.stop();
  scenario = undefined;
});

const scheduleCall = { id: 'call_schedule', name: 'schedule_task', arguments: { schedule: '0 9 * * *', prompt: 'Say good morning' } };
const numberedHint = /回复 1 批准一次 · 2 总是允许 · 3 拒绝（编号 ([a-z0-9]+)）$/;

/** Alice asks for a daily task; the model calls schedule_task (approval: always); the card arrives in her chat. */
async function requestApproval(environment: Record<string, string>) {
  scenario = await startWechatScenario({
    environment: { WECHAT_ALLOW_FROM: 'alice,boss', ...environment },
  });
  const { world, answer } = scenario;
  const alice = world.contact('alice', 'Alice');
  const boss = world.contact('boss', 'Boss');
  answer({ toolCalls: [scheduleCall] });
  world.say(alice, '每天早上九点跟我说早上好');
  const [card] = await world.waitForSent('alice', 1);
  const approvalId = numberedHint.exec(card ?? '')?.[1];
  if (approvalId === undefined) throw new Error(`no numbered card: ${card}`);
  return { ...scenario, alice, boss, card: card ?? '', approvalId };
}

async function approvalStatus(current: WechatScenario, approvalId: string): Promise<PendingApproval['status'] | undefined> {
  return (await current.testApp.app.store.namespace<PendingApproval>('approvals').get(approvalId))?.status;
}

describe('WeChat approvals by numbered reply', () => {
  it('the card says what, arguments, who, risk and the explanation; replying 1 approves once and the turn resumes', async () => {
    const { world, alice, card, approvalId, answer, turnRequests } = await requestApproval({});
    expect(card).toContain(`【需要批准】编号 ${approvalId}`);
    expect(card).toContain('操作：Every 0 9 * * * (UTC): "Say good morning"');
    expect(card).toContain('"prompt": "Say good morning"');
    expect(card).toContain('请求人：Alice');
    expect(card).toContain('风险：写入');
    expect(card).toContain(`助手的说明：${scriptedExplanation}`);
    expect(turnRequests()).toHaveLength(1);

    answer({ text: '已处理你的提醒请求。' });
    world.say(alice, '1');
    const sent = await world.waitForSent('alice', 3);
    expect(sent[1]).toMatch(new RegExp(`^审批 ${approvalId}：Alice 于 \\d{2}:\\d{2} \\(UTC\\) 批准$`));
    expect(sent[2]).toBe('已处理你的提醒请求。');
    expect(await approvalStatus(scenario as WechatScenario, approvalId)).toBe('approved');
    // The resumed turn gave the model the tool's real result in place of the waiting placeholder.
    expect(turnRequests()).toHaveLength(2);
    const result = toolResultsIn(turnRequests()[1]).get('call_schedule');
    expect(result).toBeDefined();
    expect(result).not.toContain('Waiting for a person');
    expect(result).not.toMatch(/^Not run/);
  });

  it('replying 3 denies: the outcome line follows and the model learns it was not run', async () => {
    const { world, alice, approvalId, answer, turnRequests } = await requestApproval({});
    answer({ text: '好的，不创建了。' });
    world.say(alice, '3');
    const sent = await world.waitForSent('alice', 3);
    expect(sent[1]).toMatch(new RegExp(`^审批 ${approvalId}：Alice 于 \\d{2}:\\d{2} \\(UTC\\) 拒绝$`));
    expect(sent[2]).toBe('好的，不创建了。');
    expect(await approvalStatus(scenario as WechatScenario, approvalId)).toBe('denied');
    expect(toolResultsIn(turnRequests()[1]).get('call_schedule')).toBe('Not run: Alice denied this action.');
  });

  it("a non-approver's 1 is refused and nothing is decided; the approver's /approve then decides it", async () => {
    const { world, alice, boss, approvalId, answer, turnRequests } = await requestApproval({ WECHAT_APPROVERS: 'boss' });
    world.say(alice, '1');
    const sent = await world.waitForSent('alice', 2);
    expect(sent[1]).toBe('只有审批人可以处理此请求。');
    expect(await approvalStatus(scenario as WechatScenario, approvalId)).toBe('pending');
    expect(turnRequests()).toHaveLength(1);

    answer({ text: '老板批准了。' });
    world.say(boss, `/approve ${approvalId}`);
    await world.waitForSent('alice', 4);
    expect(await approvalStatus(scenario as WechatScenario, approvalId)).toBe('approved');
    expect(world.sentTo('alice').slice(2)).toEqual([expect.stringMatching(new RegExp(`^审批 ${approvalId}：Boss 于 \\d{2}:\\d{2} \\(UTC\\) 批准$`)), '老板批准了。']);
    await waitFor(() => turnRequests().length === 2, 'the resumed turn');
  });

  it('in a room, the card asks for an @mention, and "@bot 1" from the requester approves it', async () => {
    scenario = await startWechatScenario({
      environment: { WECHAT_ALLOW_FROM: 'alice,bob' },
      configYaml: 'channels:\n  wechat:\n    rooms: [team@chatroom]\n',
    });
    const { world, answer, turnRequests } = scenario;
    const bob = world.contact('bob', 'Bob');
    const team = world.room('team@chatroom', 'Team', [bob]);
    answer({ toolCalls: [scheduleCall] });
    world.say(bob, '每天早上九点提醒大家开会', { room: team, mentionBot: true });
    const [card] = await world.waitForSent('team@chatroom', 1);
    expect(card?.split('\n').at(-1)).toBe('在群聊中请 @我 并回复。');
    const approvalId = /编号 ([a-z0-9]+)）/.exec(card ?? '')?.[1] ?? '';
    world.say(bob, '1', { room: team, mentionBot: false });
    answer({ text: '已创建。' });
    world.say(bob, '1', { room: team, mentionBot: true });
    const sent = await world.waitForSent('team@chatroom', 3);
    expect(sent[1]).toMatch(new RegExp(`^审批 ${approvalId}：Bob 于 \\d{2}:\\d{2} \\(UTC\\) 批准$`));
    expect(sent[2]).toBe('已创建。');
    expect(turnRequests()).toHaveLength(2);
  });

  it('with WECHAT_ROOM_POLICY=open and no approvers, any member reaches the model, but only the requester decides the card', async () => {
    scenario = await startWechatScenario({
      environment: { WECHAT_ALLOW_FROM: '', WECHAT_ROOM_POLICY: 'open' },
      configYaml: 'channels:\n  wechat:\n    rooms: [team@chatroom]\n',
    });
    const current = scenario;
    const { world, answer } = current;
    const alice = world.contact('alice', 'Alice');
    const mallory = world.contact('mallory', 'Mallory');
    const team = world.room('team@chatroom', 'Team', [alice, mallory]);
    answer({ toolCalls: [scheduleCall] });
    world.say(alice, '每天早上九点跟大家说早上好', { room: team, mentionBot: true });
    const [card] = await world.waitForSent('team@chatroom', 1);
    const approvalId = /编号 ([a-z0-9]+)）/.exec(card ?? '')?.[1] ?? '';
    world.say(mallory, '1', { room: team, mentionBot: true });
    await world.waitForSent('team@chatroom', 2);
    expect(await approvalStatus(current, approvalId)).toBe('pending');
  });
});
