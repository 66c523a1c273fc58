import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** One line of code (comments blanked) that names a channel. */
export type ChannelMention = { readonly file: string; readonly line: number; readonly text: string };

/** The channel folders: every folder under channels/. */
export function channelFolderNames(repositoryRoot: string): string[] {
  return readdirSync(join(repositoryRoot, 'channels'), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name);
}

/**
 * The text with comments blanked (line breaks kept, so line numbers hold) and strings kept: a channel named in a
 * string is code, in a comment it is an example. Module paths outside channels/ are blanked too (a `src/cli` folder
 * is not the terminal channel); a path into channels/ is a mention.
 */
export function codeOf(text: string): string {
  let code = '';
  let index = 0;
  while (index < text.length) {
    const character = text[index] ?? '';
    const next = text[index + 1] ?? '';
    if (character === '/' && next === '/') {
      while (index < text.length && text[index] !== '\n') index += 1;
      continue;
    }
    if (character === '/' && next === '*') {
      const end = text.indexOf('*/', index + 2);
      const stop = end < 0 ? text.length : end + 2;
      code += text.slice(index, stop).replace(/[^\n]/g, ' ');
      index = stop;
      continue;
    }
    if (character === "'" || character === '"' || character === '`') {
      let literal = character;
      index += 1;
      while (index < text.length && text[index] !== character) {
        if (text[index] === '\\') {
          literal += text.slice(index, index + 2);
          index += 2;
          continue;
        }
        literal += text[index];
        index += 1;
      }
      literal += character;
      index += 1;
      const isModulePath = /(?:from|import)\s*\(?\s*$/.test(code);
      code += isModulePath && !literal.includes('channels/') ? `${character}${character}` : literal;
      continue;
    }
    code += character;
    index += 1;
  }
  return code;
}

/** The lines of a text that name one of the channels in code: `telegram`, `Telegram`, `TELEGRAM_…`, `telegramCommands`. Pure. */
export function channelMentionsIn(text: string, names: readonly string[]): { readonly line: number; readonly text: string }[] {
  // A name as a word or the start of an identifier (`telegramCommands`, `TELEGRAM_BOT_TOKEN`), not inside another word
  // (`client`, and in upper case `CLIENT`: an upper-case name ends where the word does, at `_` or a non-letter).
  const wordStarts = names.flatMap((name) => [name, `${name[0]?.toUpperCase() ?? ''}${name.slice(1)}`, ...(name === 'wechat' ? ['WeChat'] : [])]);
  const upperCase = names.map((name) => name.toUpperCase());
  const pattern = new RegExp(`(?<![A-Za-z0-9])(?:(?:${wordStarts.join('|')})(?![a-z0-9])|(?:${upperCase.join('|')})(?![A-Za-z0-9]))`);
  return codeOf(text)
    .split('\n')
    .flatMap((line, index) => (pattern.test(line) ? [{ line: index + 1, text: line.trim() }] : []));
}

/** Every line of the files that names one of the channels in code. */
export function findChannelMentions(options: { readonly repositoryRoot: string; readonly files: readonly string[]; readonly names: readonly string[] }): ChannelMention[] {
  return options.files.flatMap((file) => channelMentionsIn(readFileSync(join(options.repositoryRoot, file), 'utf8'), options.names).map((mention) => ({ file, ...mention })));
}
