import type { TelegramClient } from 'telegram-test-api/lib/modules/telegramClient.js';
import type { ScriptedModelServer } from '../fakes/scripted-model-server.js';
import { capabilitiesAnswer } from './create-demo-model.js';
import type { Transcript } from './create-transcript.js';
import { sleep, waitUntil } from './wait-until.js';
import type { BotMessageWatcher, SeenBotMessage } from './watch-bot-messages.js';

/** A person in the emulator: their client and private chat id. */
export type DemoPerson = { readonly client: TelegramClient; readonly chatId: string };

/** Everything the conversation needs: the two people, the bot's messages, the model, and where to write. */
export type ConversationContext = {
  readonly you: DemoPerson;
  readonly stranger: DemoPerson;
  readonly watcher: BotMessageWatcher;
  readonly model: ScriptedModelServer;
  readonly transcript: Transcript;
  /** Aborts every wait (Ctrl+C, or the agent exiting). */
  readonly signal: AbortSignal;
  readonly reminderSeconds: number;
};

const replyTimeoutMs = 15_000;
// The reminder is due `reminderSeconds` after the request; this leaves room for a slow machine.
const reminderGraceMs = 30_000;
const strangerGraceMs = 1000;

/**
 * Plays the demo as a user would: a question, a reminder that raises an approval card, Approve pressed,
 * the reminder firing, and a stranger refused. Throws a readable Error at the first step that does not happen.
 */
export async function playConversation(context: ConversationContext): Promise<void> {
  const { you, stranger, watcher, transcript, signal } = context;

  // 1. A question, answered by the model.
  const answer = await send(context, you, 'you', 'What can you do?', (message) => message.buttons.length === 0, 'answer to the question');
  expectText(answer, (text) => text.trim() === capabilitiesAnswer, "the scripted model's answer to the question");

  // 2. A reminder: the model proposes schedule_task, which always asks first.
  const card = await send(context, you, 'you', `Remind me to stretch in ${context.reminderSeconds} seconds`, (message) => message.buttons.length > 0, 'approval card with buttons');
  expectText(card, (text) => text.includes('schedule_task') && text.includes('Remind the user to stretch'), 'an approval card for schedule_task');

  // 3. Approve: the card becomes its outcome, without buttons, and the turn resumes.
  const approve = card.buttons.flat().find((button) => /approve/i.test(button.label));
  if (!approve) throw new Error(`the approval card has no Approve button: ${JSON.stringify(card.buttons)}`);
  const beforePress = lastMessageId(watcher, you.chatId);
  transcript.say('you press', approve.label);
  await you.client.sendCallback(you.client.makeCallbackQuery(approve.data, { message: { message_id: card.messageId } }));
  await waitUntil(() => watcher.messages().find((message) => message.messageId === card.messageId && /Approved by @\S+ at \d\d:\d\d/.test(message.text) && message.buttons.length === 0), {
    what: 'card edited into "Approved by @... at HH:MM" without buttons',
    timeoutMs: replyTimeoutMs,
    signal,
    explain: () => describeChat(watcher, you.chatId),
  });
  // On a slow machine the reminder may come first (it is due a few seconds after it was asked for): look for each by its text.
  const confirmation = await nextMessage(context, you.chatId, beforePress, 'confirmation after the approval', replyTimeoutMs, (text) => !text.includes('Time to'));
  expectText(confirmation, (text) => text.startsWith('Done:'), 'the confirmation "Done: I\'ll remind you at ..."');

  // 4. The reminder fires into the chat on its own: the cron channel runs the scheduled prompt.
  const due = /at (\d\d:\d\d:\d\d)/.exec(confirmation.text)?.[1];
  transcript.note(`waiting for the reminder${due === undefined ? '' : ` (due at ${due})`}…`);
  const reminder = await nextMessage(context, you.chatId, beforePress, 'reminder in the chat', reminderGraceMs + context.reminderSeconds * 1000, (text) => text.includes('Time to'));
  expectText(reminder, (text) => text.includes('Time to stretch'), 'the reminder "⏰ Time to stretch!"');

  // 5. A stranger is refused: with TELEGRAM_ALLOW_FROM set, the bot reads their message and stays silent,
  // and nothing of theirs reaches the model. (The "This bot is private. Your user id is ..." notice is
  // only sent while the allow-list is empty, to help the owner find their id: channels/telegram/decide-access.ts.)
  const modelCallsBefore = chatCompletions(context.model);
  const strangerBefore = lastMessageId(watcher, stranger.chatId);
  transcript.say('stranger', 'hi');
  await stranger.client.sendMessage(stranger.client.makeMessage('hi'));
  await waitUntil(() => hasBotRead(stranger, 'hi'), { what: "sign that the bot fetched the stranger's message", timeoutMs: replyTimeoutMs, signal });
  // Fetched is not yet handled: a reply or a model request would follow within milliseconds, so give them a moment.
  await sleep(strangerGraceMs, signal);
  await watcher.refresh();
  const answered = watcher.messages().find((message) => message.chatId === stranger.chatId && message.messageId > strangerBefore);
  if (answered) throw new Error(`the bot answered the stranger, who is not in TELEGRAM_ALLOW_FROM:\n${answered.text}`);
  const modelCallsAfter = chatCompletions(context.model);
  if (modelCallsAfter !== modelCallsBefore) throw new Error(`the stranger's message reached the model (${modelCallsAfter - modelCallsBefore} model requests after it)`);
  transcript.note('no reply, by design: the bot fetched the message and ignored it, because user');
  transcript.note(`${stranger.chatId} is not in TELEGRAM_ALLOW_FROM (strangers are told their id only while that list is empty)`);
  transcript.note(`the model server got no request for it (${modelCallsAfter} model requests in the whole demo, none after "hi")`);
}

/** True once the bot has fetched (getUpdates) the person's message with this text. */
async function hasBotRead(person: DemoPerson, text: string): Promise<boolean> {
  const history: unknown = await person.client.getUpdatesHistory();
  return (Array.isArray(history) ? history : []).some((update: { isRead?: unknown; message?: { text?: unknown; chat?: { id?: unknown } } }) => {
    return update.isRead === true && update.message?.text === text && String(update.message.chat?.id) === person.chatId;
  });
}

/** Sends a message as `person`, then waits for the bot's next message in their chat that satisfies `check`. */
async function send(
  context: ConversationContext,
  person: DemoPerson,
  speaker: 'you' | 'stranger',
  text: string,
  check: (message: SeenBotMessage) => boolean,
  what: string,
): Promise<SeenBotMessage> {
  const before = lastMessageId(context.watcher, person.chatId);
  context.transcript.say(speaker, text);
  await person.client.sendMessage(person.client.makeMessage(text));
  const reply = await nextMessage(context, person.chatId, before, what);
  if (!check(reply)) throw new Error(`expected the ${what}, but the bot's next message was:\n${reply.text}`);
  return reply;
}

/** The first bot message in the chat after message id `after` (whose text passes `accept`, when given). */
function nextMessage(
  context: ConversationContext,
  chatId: string,
  after: number,
  what: string,
  timeoutMs = replyTimeoutMs,
  accept: (text: string) => boolean = () => true,
): Promise<SeenBotMessage> {
  return waitUntil(() => context.watcher.messages().find((message) => message.chatId === chatId && message.messageId > after && accept(message.text)), {
    what,
    timeoutMs,
    signal: context.signal,
    explain: () => describeChat(context.watcher, chatId),
  });
}

function lastMessageId(watcher: BotMessageWatcher, chatId: string): number {
  return Math.max(0, ...watcher.messages().filter((message) => message.chatId === chatId).map((message) => message.messageId));
}

function expectText(message: SeenBotMessage, check: (text: string) => boolean, what: string): void {
  if (!check(message.text)) throw new Error(`expected ${what}, but the bot said:\n${message.text}`);
}

function chatCompletions(model: ScriptedModelServer): number {
  return model.requests.filter((request) => request.path === '/v1/chat/completions').length;
}

function describeChat(watcher: BotMessageWatcher, chatId: string): string {
  const error = watcher.lastError();
  const count = watcher.messages().filter((message) => message.chatId === chatId).length;
  return error === undefined ? `the bot has sent ${count} messages in this chat so far` : `reading the chat failed: ${error}`;
}
