/** Who a transcript line is from, as the reader sees it. */
export type Speaker = 'you' | 'you press' | 'bot' | 'bot card' | 'bot edit' | 'stranger';

/** The readable record of what the user saw, written out as it happens. */
export type Transcript = {
  /** A line said or done in the chat: `you      › text`; further lines are indented under the first. */
  say(speaker: Speaker, text: string): void;
  /** A remark from the demo itself, not something in the chat. */
  note(text: string): void;
  /** A line as is (headers, footers). */
  line(text?: string): void;
  /** Everything written so far. */
  text(): string;
};

const labelWidth = 9;
const continuation = ' '.repeat(labelWidth + 2);

/** Writes transcript lines to `write` (stdout in the demo) and keeps them. */
export function createTranscript(write: (text: string) => void): Transcript {
  let written = '';
  const emit = (text: string) => {
    written += `${text}\n`;
    write(`${text}\n`);
  };
  return {
    say(speaker, text) {
      const [first = '', ...rest] = text.split('\n');
      emit(`${speaker.padEnd(labelWidth)}› ${first}`);
      for (const line of rest) emit(line.trim() === '' ? '' : `${continuation}${line}`);
    },
    note(text) {
      emit(`${' '.repeat(labelWidth)}· ${text}`);
    },
    line(text = '') {
      emit(text);
    },
    text: () => written,
  };
}
