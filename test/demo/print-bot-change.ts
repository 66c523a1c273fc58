import type { Transcript } from './create-transcript.js';
import type { BotMessageChange, SeenButton } from './watch-bot-messages.js';

/** `[ ✅ Approve ] [ Always ] ...`: every button, row after row, on one line. */
export function formatButtons(rows: readonly (readonly SeenButton[])[]): string {
  return rows
    .flat()
    .map((button) => `[ ${button.label} ]`)
    .join(' ');
}

/** Writes a new bot message (`bot` or, with buttons, `bot card`) or an edit (`bot edit`: what was added, and whether the buttons went). */
export function printBotChange(transcript: Transcript, change: BotMessageChange): void {
  const { message } = change;
  if (change.kind === 'new') {
    if (message.buttons.length === 0) transcript.say('bot', message.text);
    else transcript.say('bot card', `${message.text}\n${formatButtons(message.buttons)}`);
    return;
  }
  const { before } = change;
  const buttonsRemoved = before.buttons.length > 0 && message.buttons.length === 0;
  const added = message.text.startsWith(before.text) ? message.text.slice(before.text.length).trim() : undefined;
  const what = [added === undefined || added === '' ? undefined : 'this line added', buttonsRemoved ? 'buttons removed' : undefined].filter((part) => part !== undefined);
  const lines = [added === undefined ? message.text : added === '' ? '(same text)' : added];
  if (!buttonsRemoved && message.buttons.length > 0 && JSON.stringify(before.buttons) !== JSON.stringify(message.buttons)) lines.push(formatButtons(message.buttons));
  transcript.say('bot edit', `${lines.join('\n')}${what.length > 0 ? `   (the card above, edited: ${what.join(', ')})` : ''}`);
}
