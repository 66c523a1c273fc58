// Three instances on one PostgreSQL under a steady load: a person asks for a reminder, the instance that shows the
// approval card (the Telegram poller) is SIGKILLed the moment the card reaches the chat, before its job is done,
// and Approve is pressed 0.3 s later. Another instance takes the bot over, re-runs the interrupted message (its job
// lapsed) and decides the press once; the message's turn is not run again (no second approval), the approved call
// runs once, the model reads its result once, and the person gets one answer.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ClusterUnderChaos, chaosToken, createClusterUnderChaos } from '../../chaos/cluster-under-chaos.js';
import { isPostgresUp } from '../../contracts/scratch-postgres.js';
import { ensureBuilt } from '../../fakes/run-compiled.js';
import { waitFor } from '../../fakes/start-test-app.js';
import { endsWithToolResult } from '../../faults/agent-under-fault.js';
import { type SteadyStream, sendSteadily } from '../../chaos/send-steadily.js';

const asker = 7001;
const people = Array.from({ length: 10 }, (_, index) => 7101 + index);
const continuation = 'Done: the reminder is set.';
const postgresUp = await isPostgresUp();
if (!postgresUp) console.warn('PostgreSQL is not running on 127.0.0.1:5432: the cluster scenarios are skipped.');

describe.skipIf(!postgresUp)('an approval pressed right after the instance that showed its card is killed', () => {
  let world: ClusterUnderChaos | undefined;
  let stream: SteadyStream | undefined;
  beforeAll(() => ensureBuilt(), 180_000);
  afterAll(async () => {
    await stream?.stop();
    await world?.close();
  }, 60_000);

  it('continues the approved turn once on another instance', async () => {
    world = await createClusterUnderChaos({
      instances: 3,
      allowFrom: [asker, ...people].join(','),
      approvers: String(asker),
      yaml: () => ['approvals:', '  explain: false', ''].join('\n'),
    });
    const current = world;
    const at = new Date(Date.now() + 60 * 60_000).toISOString().slice(0, 19);
    current.model.setFallback((body, context) => {
      if (endsWithToolResult(body)) return { text: continuation };
      if (context.lastUserText === 'remind me to stretch') return { toolCalls: [{ name: 'schedule_task', arguments: { schedule: at, prompt: 'Remind me to stretch' } }], delayMs: 6000 };
      return { text: `answer: ${context.lastUserText}`, delayMs: 400 };
    });
    const [first, ...others] = current.names;
    if (first === undefined) throw new Error('no instance');
    // The first instance alone takes the message, so the poller runs the turn; the model thinks long enough for the others to start.
    await current.start(first);
    const person = current.emulator.privateChatClient(chaosToken, asker);
    // Killed the moment its card reaches the chat: it never learns the card got out, and its job is not done.
    let killed: Promise<number> | undefined;
    const onCard = () => {
      const stored = current.emulator.server.storage.botMessages.at(-1)?.message as { chat_id?: unknown; reply_markup?: unknown } | undefined;
      if (stored?.reply_markup === undefined || String(stored.chat_id) !== String(asker) || killed) return;
      current.emulator.server.off('AddedBotMessage', onCard);
      killed = current.killAndRestart(first, {
        deadForMs: 2000,
        whileDead: async () => {
          await new Promise((resolve) => setTimeout(resolve, 300));
          const card = current.emulator.botMessages(chaosToken, asker).find((message) => (message.keyboard?.length ?? 0) > 0);
          const button = card?.keyboard?.flat().find((candidate) => /Approve/.test(candidate.text));
          if (!card || !button) throw new Error('no Approve button');
          await person.sendCallback(person.makeCallbackQuery(button.callback_data, { message: { message_id: card.messageId } }));
        },
      });
    };
    current.emulator.server.on('AddedBotMessage', onCard);
    await person.sendMessage(person.makeMessage('remind me to stretch'));
    await waitFor(() => current.model.requests.some((request) => JSON.stringify(request.body).includes('remind me to stretch')), 'the turn to reach the model');
    await Promise.all(others.map((name) => current.start(name)));
    // Turns in flight on every instance when the poller dies.
    stream = sendSteadily({
      people,
      messagesEach: Number.POSITIVE_INFINITY,
      everyMs: 150,
      textOf: (who, number) => `p${who} m${number}`,
      send: async (who, text) => {
        const sender = current.emulator.privateChatClient(chaosToken, who);
        await sender.sendMessage(sender.makeMessage(text));
      },
    });
    const card = await waitFor(() => current.emulator.botMessages(chaosToken, asker).find((message) => (message.keyboard?.length ?? 0) > 0), 'the approval card', 60_000);
    await waitFor(() => killed, 'the kill');
    await killed;
    expect(current.model.requests.find((request) => JSON.stringify(request.body).includes('remind me to stretch'))?.headers.authorization).toBe(`Bearer chaos-key-${first}`);

    await waitFor(() => current.emulator.botMessages(chaosToken, asker).find((message) => message.text === continuation), 'the approved turn to continue', 60_000);
    await stream.stop();
    // Time for a second continuation, were there one.
    await new Promise((resolve) => setTimeout(resolve, 3000));
    const toolResults = current.model.requests.filter((request) => request.body && endsWithToolResult(request.body));
    expect(toolResults).toHaveLength(1);
    expect(JSON.stringify(toolResults[0]?.body?.messages?.at(-1))).toContain('Scheduled task');
    expect(current.emulator.botMessages(chaosToken, asker).filter((message) => message.text === continuation)).toHaveLength(1);
    // The interrupted message was not run again: the model was asked about it once, so there is one approval, and
    // every card of it (one shown again when the first may not have got out) ends up decided.
    expect(current.model.requests.filter((request) => request.body?.messages?.at(-1)?.content === 'remind me to stretch')).toHaveLength(1);
    for (const shown of current.emulator.botMessages(chaosToken, asker)) expect(shown.keyboard ?? []).toEqual([]);
    const settledCard = current.emulator.botMessages(chaosToken, asker).find((message) => message.messageId === card.messageId);
    expect(settledCard?.text).toContain('Approved by');
  }, 180_000);
});
