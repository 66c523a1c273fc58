// The floor of the Telegram benchmark: a bare telegraf bot that only echoes, polled the same way as
// echo-agent's channel polls the emulator (getUpdates answers at once there, so a short sleep on
// empty answers), handling each batch like telegraf's own polling loop (all updates of a batch at once).
import { Telegraf } from 'telegraf';

const token = process.env.BENCH_TELEGRAM_TOKEN ?? '';
const apiRoot = process.env.BENCH_TELEGRAM_API_ROOT ?? '';
const idleSleepMs = Number(process.env.BENCH_IDLE_SLEEP_MS ?? 100);

const bot = new Telegraf(token, { telegram: { apiRoot } });
bot.on('message', async (context) => {
  const text = 'text' in context.message ? context.message.text : '';
  await context.reply(`echo: ${text}`);
});

let stopping = false;
process.on('SIGTERM', () => {
  stopping = true;
});

bot.botInfo = await bot.telegram.getMe();
process.stdout.write('bare bot ready\n');
let offset = 0;
while (!stopping) {
  const updates = await bot.telegram.getUpdates(0, 100, offset, ['message']);
  if (updates.length === 0) {
    await new Promise((resolve) => setTimeout(resolve, idleSleepMs));
    continue;
  }
  offset = (updates.at(-1)?.update_id ?? offset) + 1;
  await Promise.all(updates.map((update) => bot.handleUpdate(update)));
}
