// Parked resumptions in the running app. A resumed turn (an approved call, an answered question) is counted before
// each start: in the approval's claim, or on the question's suspension. A resumption that a process died in twice is
// simulated the way such processes leave it (the claim `resuming` with two starts, or an answered question with two
// starts) and the next sweep is its third start: it is parked instead of run, the person told once in the origin chat,
// and no later sweep queues it again. `/parked retry` continues the turn once more; `/parked drop` ends it for good.
import { afterEach, describe, expect, it } from 'vitest';
import type { PendingApproval } from '../../../src/approvals/pending-approval.js';
import type { SuspendedTurn } from '../../../src/approvals/suspended-turn.js';
import { resumptionEventId } from '../../../src/agent/count-resumption-start.js';
import type { ParkedTurn } from '../../../src/journal/parked-turns.js';
import { parkedTurnIdOf } from '../../../src/journal/parked-turns.js';
import { createDeployTool } from '../../fakes/deploy-tool.js';
import { waitFor } from '../../fakes/start-test-app.js';
import { startTelegramScenario, type TelegramScenario } from '../../fakes/telegram-scenario.js';
import { gatewayOf } from '../../fakes/webhook-client.js';

const approver = 1001;
const person = 1002;
const setAside = 'I could not process your last message; it has been set aside.';
const sweepEveryMs = 100;

let scenario: TelegramScenario | undefined;
afterEach(async () => {
  await scenario?.stop();
  scenario = undefined;
});

/** The app with a deploy tool that records, each time it runs, how many starts its approval's claim had counted. */
async function startWorld() {
  const deploy = createDeployTool();
  const startsSeenByDeploy: (number | undefined)[] = [];
  const counted = { ...deploy.tool, execute: async (input: { target: string }, context: Parameters<typeof deploy.tool.execute>[1]) => {
    const approvals = await current.testApp.app.store.namespace<PendingApproval>('approvals').entries();
    startsSeenByDeploy.push(approvals.find(([, approval]) => approval.status === 'approved' && approval.resumption?.state === 'resuming')?.[1].resumption?.starts);
    return deploy.tool.execute(input, context);
  } };
  const current = await startTelegramScenario({
    allowFrom: `${approver},${person}`,
    approvers: String(approver),
    extraTools: [counted as typeof deploy.tool],
    sweepEveryMs,
    yaml: 'tools:\n  alsoAllow: [deploy]\napprovals:\n  explain: false\n  route: approvers\n',
  });
  scenario = current;
  current.model.setFallback((body, context) => {
    const last = body.messages?.at(-1);
    if (last?.role === 'tool') return { text: `done: ${String(last.content)}` };
    const match = /deploy (\w+)/.exec(context.lastUserText);
    if (match && last?.role === 'user') return { toolCalls: [{ name: 'deploy', arguments: { target: match[1] ?? '' } }] };
    return { text: `echo: ${context.lastUserText}` };
  });
  const approvals = current.testApp.app.store.namespace<PendingApproval>('approvals');
  const suspensions = current.testApp.app.store.namespace<SuspendedTurn>('suspended-turns');
  const parked = current.testApp.app.store.namespace<ParkedTurn>('parked-turns');

  async function say(text: string, userId = person): Promise<void> {
    const client = current.client({ userId });
    await client.sendMessage(client.makeMessage(text));
  }

  /** Asks for a deploy and waits for its card; resolves to the approval id. */
  async function askForDeploy(target: string): Promise<string> {
    const before = new Set((await approvals.entries()).map(([id]) => id));
    await say(`deploy ${target}`);
    return waitFor(async () => (await approvals.entries()).find(([id, approval]) => !before.has(id) && approval.status === 'pending')?.[0], `the card for ${target}`);
  }

  /** Leaves an approval as processes that approved it and then died in each of `starts` resumptions would. */
  async function leaveResumptionInterrupted(id: string, starts: number): Promise<void> {
    const at = new Date().toISOString();
    await approvals.update(id, (current) => (current ? { ...current, status: 'approved', scope: 'once', decidedBy: '@user1001', decidedAt: at, resumption: { state: 'resuming', by: 'a-dead-process', at, starts } } : current));
  }

  async function command(text: string): Promise<string> {
    const before = current.botMessages(approver).length;
    await say(text, approver);
    return (await waitFor(() => current.botMessages(approver)[before], `the answer to ${text}`)).text;
  }

  const saidToPerson = (text: string) => current.botMessages(person).filter((message) => message.text === text).length;
  const modelReadResultOf = (target: string) => current.modelRequests().some((request) => JSON.stringify(request.body?.messages ?? []).includes(`deployed to ${target}`));
  const sweeps = (count: number) => new Promise((resolve) => setTimeout(resolve, count * sweepEveryMs));
  return { current, deploy, startsSeenByDeploy, approvals, suspensions, parked, say, askForDeploy, leaveResumptionInterrupted, command, saidToPerson, modelReadResultOf, sweeps };
}

describe('resumed turns that keep being interrupted', () => {
  it('counts each start of a resumption in its claim before it runs: a first start and a start after one death both run', async () => {
    const world = await startWorld();
    const pressed = await world.askForDeploy('staging');
    // No new message answers /approve when the card is already in the approver's chat (it is edited), so wait on the record.
    await world.say(`/approve ${pressed}`, approver);
    await waitFor(async () => (await world.approvals.get(pressed))?.status === 'approved', 'the approval decided');
    await world.current.waitForBotMessage((message) => message.text === 'done: deployed to staging', 'the approved deploy to finish');
    expect(world.startsSeenByDeploy).toEqual([1]);
    // Marked done once the turn answered.
    await waitFor(async () => (await world.approvals.get(pressed))?.resumption?.state === 'done', 'the resumption marked done');

    // One death: the second start is counted and runs (parking waits for two).
    const interruptedOnce = await world.askForDeploy('qa');
    await world.leaveResumptionInterrupted(interruptedOnce, 1);
    await world.current.waitForBotMessage((message) => message.text === 'done: deployed to qa', 'the resumption after one death');
    expect(world.startsSeenByDeploy).toEqual([1, 2]);
    expect(world.saidToPerson(setAside)).toBe(0);
  });

  it('parks an approved resumption on its third start, tells the person once, and no sweep queues it again; /parked retry continues it once', async () => {
    const world = await startWorld();
    const id = await world.askForDeploy('prod');
    await world.leaveResumptionInterrupted(id, 2);
    await world.current.waitForBotMessage((message) => message.chatId === String(person) && message.text === setAside, 'the set-aside sentence in the origin chat');
    await world.sweeps(6);
    expect(world.saidToPerson(setAside)).toBe(1);
    expect(world.deploy.runs).toEqual([]);
    expect(world.modelReadResultOf('prod')).toBe(false);
    // Not taken over: the claim still shows the two interrupted starts, and the suspension is marked parked.
    expect((await world.approvals.get(id))?.resumption).toMatchObject({ state: 'resuming', starts: 2 });
    expect((await world.suspensions.get(id))?.parkedAt).toBeDefined();
    const parkedId = parkedTurnIdOf(resumptionEventId(id));
    expect(await world.parked.get(parkedId)).toMatchObject({ attempts: 2, event: { type: 'turn-resumed', suspensionId: id, chatId: String(person), sessionKey: `telegram:${person}` } });
    const health = (await (await fetch(`${gatewayOf(world.current.testApp.app).baseUrl}/healthz`)).json()) as { parked?: unknown };
    expect(health.parked).toMatchObject({ count: 1, newest: { id: parkedId, attempts: 2 } });

    expect(await world.command('/parked')).toContain(`${parkedId} — telegram:${person}`);
    expect(await world.command(`/parked retry ${parkedId}`)).toBe(`Parked turn ${parkedId} is queued to run again. If it is interrupted twice more, it is parked again.`);
    await world.current.waitForBotMessage((message) => message.chatId === String(person) && message.text === 'done: deployed to prod', 'the retried resumption to finish');
    // Its count was reset: the retry is its first start.
    expect(world.startsSeenByDeploy).toEqual([1]);
    expect(world.deploy.runs).toEqual(['prod']);
    await waitFor(async () => (await world.approvals.get(id))?.resumption?.state === 'done', 'the resumption marked done');
    await waitFor(async () => (await world.suspensions.get(id)) === undefined, 'the suspension removed');
    expect(await world.command('/parked')).toBe('No turns are parked.');
    await world.sweeps(4);
    expect(world.deploy.runs).toEqual(['prod']);
    expect(world.saidToPerson(setAside)).toBe(1);
  });

  it('/parked drop ends a parked resumption for good: the approval is done, the suspension gone, nothing runs later', async () => {
    const world = await startWorld();
    const id = await world.askForDeploy('prod');
    await world.leaveResumptionInterrupted(id, 2);
    await world.current.waitForBotMessage((message) => message.text === setAside, 'the set-aside sentence');
    const parkedId = parkedTurnIdOf(resumptionEventId(id));
    expect(await world.command(`/parked drop ${parkedId}`)).toBe(`Parked turn ${parkedId} was dropped.`);
    expect((await world.approvals.get(id))?.resumption).toMatchObject({ state: 'done', by: `telegram:${approver}` });
    expect(await world.suspensions.get(id)).toBeUndefined();
    await world.sweeps(6);
    expect(world.deploy.runs).toEqual([]);
    expect(world.modelReadResultOf('prod')).toBe(false);
    expect(await world.parked.entries()).toEqual([]);
    await world.say('still there?');
    await world.current.waitForBotMessage((message) => message.text === 'echo: still there?', 'the next message answered');
    expect(world.saidToPerson(setAside)).toBe(1);
  });

  it('counts the starts of an answered question on its suspension, parks it on the third, and retry continues it', async () => {
    const world = await startWorld();
    const openQuestions = world.current.testApp.app.store.namespace<string>('open-questions');
    world.current.model.enqueue({ toolCalls: [{ name: 'ask_user', arguments: { question: 'Tea or coffee?', options: ['Tea', 'Coffee'] } }] });
    await world.say('make me a drink');
    await world.current.waitForBotMessage((message) => message.text === 'Tea or coffee?', 'the question');
    const [questionId] = (await world.suspensions.entries()).find(([, suspended]) => suspended.kind === 'question') ?? [];
    expect(questionId).toBeDefined();
    const id = questionId ?? '';
    // As two processes that took the answer and died while continuing leave it: answered, two starts counted, the
    // chat's open question cleared by the first start.
    await world.suspensions.update(id, (current) => (current?.kind === 'question' ? { ...current, answer: 'Coffee', answeredBy: '@user1002', resumeStarts: 2 } : current));
    await openQuestions.delete(`telegram:${person}`);
    await world.current.waitForBotMessage((message) => message.chatId === String(person) && message.text === setAside, 'the set-aside sentence');
    await world.sweeps(6);
    expect(world.saidToPerson(setAside)).toBe(1);
    const answeredSeen = () => world.current.modelRequests().some((request) => JSON.stringify(request.body?.messages ?? []).includes('answered: Coffee'));
    expect(answeredSeen()).toBe(false);
    expect(await world.suspensions.get(id)).toMatchObject({ resumeStarts: 2 });

    const parkedId = parkedTurnIdOf(resumptionEventId(id));
    world.current.model.enqueue({ text: 'Coffee it is.' });
    expect(await world.command(`/parked retry ${parkedId}`)).toContain('is queued to run again');
    await world.current.waitForBotMessage((message) => message.text === 'Coffee it is.', 'the retried question to continue');
    expect(answeredSeen()).toBe(true);
    await waitFor(async () => (await world.suspensions.get(id)) === undefined, 'the suspension removed');
    expect(await world.parked.entries()).toEqual([]);
  });
});
