/** What the system prompt says about this turn. */
export type SystemPromptFacts = {
  readonly basePrompt: string;
  readonly now: Date;
  readonly timezone: string;
  readonly channel: string;
  readonly userName: string;
  readonly origin: 'user' | 'schedule' | 'system';
  readonly isGroup?: boolean;
};

// Building an Intl.DateTimeFormat costs about 0.1 ms, as much as a tenth of a whole turn: one per timezone, reused.
const timeFormats = new Map<string, Intl.DateTimeFormat>();

function timeFormatFor(timezone: string): Intl.DateTimeFormat {
  let format = timeFormats.get(timezone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-GB', { timeZone: timezone, dateStyle: 'full', timeStyle: 'long' });
    timeFormats.set(timezone, format);
  }
  return format;
}

/** The system prompt: the configured persona plus the current time in the configured timezone, the channel and the user. */
export function buildSystemPrompt(facts: SystemPromptFacts): string {
  const time = timeFormatFor(facts.timezone).format(facts.now);
  const lines = [
    facts.basePrompt,
    '',
    `Current time: ${time} (timezone ${facts.timezone}; ISO ${facts.now.toISOString()}).`,
    `Channel: ${facts.channel}${facts.isGroup ? ' (group chat)' : ''}. User: ${facts.userName}.`,
  ];
  if (facts.origin === 'schedule') lines.push('This turn was started by a scheduled task, not by a person typing: do the task and report the result.');
  if (facts.origin === 'system') lines.push('This turn was started by another system through the HTTP API.');
  lines.push('Tool calls are proposals: some need a person to approve them first. If a tool result says it is waiting for approval, tell the user briefly and stop.');
  return lines.join('\n');
}
