// The floors of the Telegram benchmark: a bare telegraf bot, polled the same way as echo-agent's channel
// polls the emulator (a 25 s long poll; where the emulator answers at once, a short sleep on empty answers), handling each
// batch like telegraf's own polling loop (all updates of a batch at once). Without BENCH_MODEL_URL it only
// echoes (the old floor); with it, each message makes the same single chat-completion request to the same
// scripted model echo-agent talks to, and the answer is the reply (the floor that calls the model). The
// request is echo-agent's own (BENCH_MODEL_REQUEST_FILE: its system prompt and tool schemas) with the
// message's text as the user message, so the model server parses as much for one bot as for the other.
// Started without a model and left idle, it is also the floor of start-up (spawn to its first getUpdates,
// when it prints its ready line) and of idle memory.
import { readFileSync } from 'node:fs';
import { Telegraf } from 'telegraf';

const token = process.env.BENCH_TELEGRAM_TOKEN ?? '';
const apiRoot = process.env.BENCH_TELEGRAM_API_ROOT ?? '';
const idleSleepMs = Number(process.env.BENCH_IDLE_SLEEP_MS ?? 100);
// echo-agent's getUpdates timeout: an emulator that long-polls holds the poll until a message arrives.
const longPollSeconds = 25;
const modelUrl = process.env.BENCH_MODEL_URL;
const requestFile = process.env.BENCH_MODEL_REQUEST_FILE;
type ChatRequest = { readonly model: string; readonly messages: readonly { readonly role: string; readonly content: unknown }[]; readonly [field: string]: unknown };
const template: ChatRequest = requestFile === undefined ? { model: 'bench', messages: [{ role: 'user', content: '' }] } : (JSON.parse(readFileSync(requestFile, 'utf8')) as ChatRequest);

/** One chat completion, as a bare bot would ask it: the user's text in, the assistant's text out. */
async function askModel(baseUrl: string, text: string): Promise<string> {
  const response = await fetch(`${baseUrl}/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: 'Bearer bench-key' },
    body: JSON.stringify({ ...template, messages: [...template.messages.slice(0, -1), { role: 'user', content: text }] }),
  });
  const body = (await response.json()) as { choices?: { message?: { content?: string | null } }[] };
  return body.choices?.[0]?.message?.content ?? '';
}

const bot = new Telegraf(token, { telegram: { apiRoot } });
bot.on('message', async (context) => {
  const text = 'text' in context.message ? context.message.text : '';
  await context.reply(modelUrl === undefined ? `echo: ${text}` : await askModel(modelUrl, text));
});

// Nothing to finish: a stop need not wait for a long poll the emulator holds.
process.on('SIGTERM', () => process.exit(0));

bot.botInfo = await bot.telegram.getMe();
let offset = 0;
let polledYet = false;
for (;;) {
  const started = Date.now();
  const polled = bot.telegram.getUpdates(longPollSeconds, 100, offset, ['message']);
  // The ready line goes out with the first getUpdates: the start-up floor is spawn to first poll.
  if (!polledYet) {
    polledYet = true;
    process.stdout.write('bare bot ready\n');
  }
  const updates = await polled;
  if (updates.length === 0) {
    // As echo-agent's loop: a sleep only after an empty answer that came at once (an emulator without long polling).
    if (Date.now() - started < 1000) await new Promise((resolve) => setTimeout(resolve, idleSleepMs));
    continue;
  }
  offset = (updates.at(-1)?.update_id ?? offset) + 1;
  await Promise.all(updates.map((update) => bot.handleUpdate(update)));
}
