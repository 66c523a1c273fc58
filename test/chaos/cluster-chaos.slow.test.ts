// Chaos: three echo-agent processes on one PostgreSQL, one bot (Telegram emulator), a scripted model that takes
// 400 ms per answer. 20 people send 10 numbered messages each while an instance is killed with SIGKILL every
// 15 s and started again; an approval card is pressed 0.3 s after the instance that showed it was killed (the moment
// the card reached the chat); a cron job
// fires every 10 s. Asserts: every message answered exactly once and in order per chat; one decision and one
// run of the approved call; every cron slot fired and answered exactly once; never two pollers at once; a turn
// whose instance is killed mid-way is answered once by another instance.
// Prints the recovery time after each kill. Run alone with `npm run chaos`.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isPostgresUp } from '../contracts/scratch-postgres.js';
import { ensureBuilt } from '../fakes/run-compiled.js';
import { waitFor } from '../fakes/start-test-app.js';
import { endsWithToolResult } from '../faults/agent-under-fault.js';
import { type ClusterUnderChaos, chaosToken, createClusterUnderChaos } from './cluster-under-chaos.js';
import { measureRecovery } from './measure-recovery.js';
import { sendSteadily } from './send-steadily.js';

const people = Array.from({ length: 20 }, (_, index) => 2001 + index);
const messagesEach = 10;
const approver = 9001;
const slowAsker = 9002;
const cronChat = 9100;
const sleep = (milliseconds: number) => new Promise((resolve) => setTimeout(resolve, milliseconds));
const postgresUp = await isPostgresUp();
if (!postgresUp) console.warn('PostgreSQL is not running on 127.0.0.1:5432: the cluster chaos test is skipped.');

describe.skipIf(!postgresUp)('three instances under SIGKILL every 15 s', () => {
  let world: ClusterUnderChaos | undefined;
  beforeAll(() => ensureBuilt(), 180_000);
  afterAll(async () => {
    await world?.close();
  }, 60_000);

  it('answers every message once and in order, decides the card once, fires each cron slot once, and never polls twice', async () => {
    world = await createClusterUnderChaos({
      instances: 3,
      allowFrom: [...people, approver, slowAsker].join(','),
      approvers: String(approver),
      yaml: (workFolder) =>
        [
          'tools:',
          '  profile: coding',
          '  alsoAllow: [exec]',
          `  workspaceDir: ${JSON.stringify(join(workFolder, 'workspace'))}`,
          'approvals:',
          '  explain: false',
          'cron:',
          '  jobs:',
          '    - id: tick',
          "      schedule: '*/10 * * * * *'",
          '      prompt: say tick',
          `      target: telegram:${cronChat}`,
          '',
        ].join('\n'),
    });
    const current = world;
    // The slow turn: its first run hangs until its instance is killed; the re-run on another instance answers.
    let slowTurnAskedBy: string | undefined;
    // The instance whose turn shows the approval card.
    let cardAskedBy: string | undefined;
    current.model.setFallback((body, context) => {
      if (context.lastUserText === 'a slow turn') {
        if (slowTurnAskedBy === undefined) {
          slowTurnAskedBy = String(context.headers.authorization ?? '').replace('Bearer chaos-key-', '');
          return { text: 'never sent: its instance is killed first', delayMs: 60_000 };
        }
        return { text: 'answer: a slow turn' };
      }
      if (endsWithToolResult(body)) return { text: 'Continuation: the counter ran.' };
      if (context.lastUserText === 'bump the counter') {
        cardAskedBy ??= String(context.headers.authorization ?? '').replace('Bearer chaos-key-', '');
        return { toolCalls: [{ name: 'exec', arguments: { command: 'echo run >> counter.txt' } }] };
      }
      if (context.lastUserText.includes('[Scheduled task tick]')) return { text: 'tick', delayMs: 400 };
      return { text: `answer: ${context.lastUserText}`, delayMs: 400 };
    });
    for (const name of current.names) await current.start(name);
    const startedAt = Date.now();
    const client = (userId: number) => current.emulator.privateChatClient(chaosToken, userId);
    const textOf = (person: number, number: number) => `p${person} m${number}`;

    // A steady stream (one message every 250 ms, each person every 5 s), so every kill lands on turns in flight.
    const stream = sendSteadily({
      people,
      messagesEach,
      everyMs: 250,
      textOf,
      send: async (person, text) => {
        const sender = client(person);
        await sender.sendMessage(sender.makeMessage(text));
      },
    });

    const kills: Array<{ readonly name: string; readonly at: number; readonly why: string }> = [];
    const killAndRestart = async (name: string, why: string, whileDead?: () => Promise<void>) => {
      kills.push({ name, why, at: await current.killAndRestart(name, { deadForMs: 2000, whileDead }) });
    };
    const untilSecond = (second: number) => sleep(Math.max(0, startedAt + second * 1000 - Date.now()));
    const poller = () => current.poller();

    // Kill 1 (15 s): the instance that polls the bot.
    await untilSecond(15);
    await killAndRestart(poller(), 'the poller');

    // The card (kill 2, about 30 s): the instance that shows it is killed the moment it reaches the chat, before its
    // job is done (so the message runs again elsewhere), and Approve is pressed 0.3 s later, while it is dead.
    await untilSecond(28);
    const person = client(approver);
    const pressApprove = async () => {
      await sleep(300);
      const shown = current.emulator.botMessages(chaosToken, approver).find((message) => (message.keyboard?.length ?? 0) > 0);
      const button = shown?.keyboard?.flat().find((candidate) => /Approve/.test(candidate.text));
      if (!shown || !button) throw new Error('no Approve button');
      await person.sendCallback(person.makeCallbackQuery(button.callback_data, { message: { message_id: shown.messageId } }));
    };
    let cardKill: Promise<number> | undefined;
    const killOnCard = () => {
      const stored = current.emulator.server.storage.botMessages.at(-1)?.message as { chat_id?: unknown; reply_markup?: unknown } | undefined;
      if (stored?.reply_markup === undefined || String(stored.chat_id) !== String(approver) || cardKill || cardAskedBy === undefined) return;
      current.emulator.server.off('AddedBotMessage', killOnCard);
      cardKill = current.killAndRestart(cardAskedBy, { deadForMs: 2000, whileDead: pressApprove });
    };
    current.emulator.server.on('AddedBotMessage', killOnCard);
    await person.sendMessage(person.makeMessage('bump the counter'));
    const card = await waitFor(() => current.emulator.botMessages(chaosToken, approver).find((message) => (message.keyboard?.length ?? 0) > 0), 'the approval card', 60_000);
    kills.push({ name: cardAskedBy ?? '', why: 'the instance that showed the card', at: await waitFor(() => cardKill, 'the kill of the instance that showed the card') });

    // Kill 3 (45 s): the instance in the middle of a turn (the slow one), which must move to another instance.
    await untilSecond(42);
    const slow = client(slowAsker);
    await slow.sendMessage(slow.makeMessage('a slow turn'));
    await waitFor(() => slowTurnAskedBy, 'the slow turn to reach the model', 30_000);
    await untilSecond(45);
    await killAndRestart(slowTurnAskedBy ?? '', 'in the middle of a turn');
    await stream.done;

    const expected = people.flatMap((who) => Array.from({ length: messagesEach }, (_, index) => ({ who, text: textOf(who, index + 1) })));
    const answered = () => new Set(current.emulator.botMessages(chaosToken).map((message) => message.text));
    await waitFor(() => (expected.every(({ text }) => answered().has(`answer: ${text}`)) ? true : undefined), 'an answer to every message', 120_000);
    await waitFor(() => (answered().has('Continuation: the counter ran.') ? true : undefined), 'the approved turn to finish', 60_000);
    const slowAnswered = await waitFor(() => current.seen().find((message) => message.text === 'answer: a slow turn'), 'the slow turn to be answered by another instance', 90_000);

    // A second press after the restart decides nothing more.
    const pressedAgain = card.keyboard?.flat().find((candidate) => /Approve/.test(candidate.text));
    if (pressedAgain) await person.sendCallback(person.makeCallbackQuery(pressedAgain.callback_data, { message: { message_id: card.messageId } }));

    // Every cron slot claimed so far has its run answered.
    const database = new pg.Client({ connectionString: current.databaseUrl });
    await database.connect();
    const slots = async () => (await database.query<{ key: string }>("SELECT key FROM echo_store WHERE namespace = 'cron-slots' ORDER BY key")).rows.map((row) => row.key);
    const ticks = () => current.emulator.botMessages(chaosToken, cronChat).filter((message) => message.text === 'tick').length;
    const claimed = await slots();
    await waitFor(() => (ticks() >= claimed.length ? true : undefined), 'a tick for every claimed slot', 60_000);
    await sleep(3000);
    const finalSlots = await slots();
    await waitFor(() => (ticks() >= finalSlots.length ? true : undefined), 'a tick for every slot', 60_000);
    await database.end();

    // Recovery: from each kill until every message sent before it was answered.
    const recoveries = kills.map((kill) => ({ ...kill, ...measureRecovery({ killedAt: kill.at, sentAt: stream.sentAt, answeredAt: (text) => current.seenAt(`answer: ${text}`) }) }));
    const slowKill = kills.find((kill) => kill.why === 'in the middle of a turn');
    console.log(`cluster chaos: ${kills.length} kills; the turn killed mid-way was answered ${(((slowAnswered.seenAt ?? 0) - (slowKill?.at ?? 0)) / 1000).toFixed(1)} s after its instance died`);
    for (const recovery of recoveries) console.log(`  killed ${recovery.name} (${recovery.why}): ${recovery.pending} messages in flight, all answered ${recovery.recoverySeconds.toFixed(1)} s after the kill`);

    // Every message answered exactly once, in order per chat.
    for (const who of people) {
      const answers = current.emulator.botMessages(chaosToken, who).map((message) => message.text);
      expect(answers).toEqual(Array.from({ length: messagesEach }, (_, index) => `answer: ${textOf(who, index + 1)}`));
    }
    // The turn killed mid-way: answered once, by a re-run, never by the killed instance.
    expect(current.emulator.botMessages(chaosToken, slowAsker).map((message) => message.text)).toEqual(['answer: a slow turn']);
    // One decision, one run of the approved call, one continuation; the message whose instance died after showing
    // the card was not run again (one model call for it, so one approval), and every card of it is decided.
    expect(current.model.requests.filter((request) => request.body?.messages?.at(-1)?.content === 'bump the counter')).toHaveLength(1);
    expect(readFileSync(join(current.workFolder, 'workspace', 'counter.txt'), 'utf8')).toBe('run\n');
    const approverMessages = current.emulator.botMessages(chaosToken, approver);
    expect(approverMessages.filter((message) => message.text === 'Continuation: the counter ran.')).toHaveLength(1);
    const settledCard = approverMessages.find((message) => message.messageId === card.messageId);
    expect(settledCard?.text).toContain('Approved by');
    expect(settledCard?.keyboard ?? []).toEqual([]);
    for (const shown of approverMessages) expect(shown.keyboard ?? []).toEqual([]);
    // Each cron slot fired once (one claim per due time, every 10 s with no gap) and was answered once.
    const times = finalSlots.map((key) => new Date(key.slice(key.indexOf('@') + 1)).getTime()).sort((left, right) => left - right);
    expect(times.length).toBeGreaterThanOrEqual(5);
    for (let index = 1; index < times.length; index += 1) expect((times[index] ?? 0) - (times[index - 1] ?? 0)).toBe(10_000);
    expect(ticks()).toBe(finalSlots.length);
    // Never two pollers at once.
    const polls = current.proxy.polls;
    const now = Date.now();
    for (const poll of polls) {
      const overlapping = polls.filter((other) => other.instance !== poll.instance && other.startedAt < (poll.endedAt ?? now) && poll.startedAt < (other.endedAt ?? now));
      expect(overlapping, `${poll.instance} polled at ${poll.startedAt} beside another instance`).toEqual([]);
    }
  }, 420_000);
});
