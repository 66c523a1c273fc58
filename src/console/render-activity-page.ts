import type { ConsoleStrings } from './console-strings.js';
import type { ConsoleViewer } from './console-viewer.js';
import { escapeHtml } from './escape-html.js';
import { type RecordedEntry, type RecordedTurn, type TurnFilter, turnOrigins } from './group-turns.js';

const outcomes = ['ok', 'failed', 'denied', 'waiting'] as const;

/** One step of a turn in a line: what kind, which tool, the outcome, how long. */
function stepLine(entry: RecordedEntry): string {
  const tool = entry.tool === undefined ? '' : ` <code>${escapeHtml(entry.tool)}</code>`;
  const duration = entry.durationMs === undefined ? '' : ` · ${escapeHtml(entry.durationMs)} ms`;
  const by = entry.decidedBy === undefined ? '' : ` · ${escapeHtml(entry.decidedBy)}${entry.via === 'console' ? ' (console)' : ''}`;
  return `${escapeHtml(entry.kind)}${tool} → ${escapeHtml(entry.outcome)}${duration}${by}`;
}

/** The activity page body: filters, the turns as a timeline, and one turn's full steps when `openTurn` is given. */
export function renderActivityPage(input: { readonly strings: ConsoleStrings; readonly viewer: ConsoleViewer; readonly turns: readonly RecordedTurn[]; readonly filter: TurnFilter; readonly openTurn?: RecordedTurn; readonly formatTime: (iso: string) => string; readonly channels: readonly string[]; readonly kinds: readonly string[] }): string {
  const { strings } = input;
  const words = strings.activity;
  const select = (name: string, label: string, values: readonly string[], current: string | undefined) =>
    `<label>${escapeHtml(label)}<select name="${name}"><option value="">${escapeHtml(words.any)}</option>${values.map((value) => `<option${value === current ? ' selected' : ''}>${escapeHtml(value)}</option>`).join('')}</select></label>`;
  const filters = `<form class="filters" method="get" action="/console/activity">
${select('channel', words.channel, input.channels, input.filter.channel)}
<label>${escapeHtml(words.user)}<input name="user" value="${escapeHtml(input.filter.user ?? '')}" size="10"></label>
${select('origin', words.origin, turnOrigins, input.filter.origin)}
${select('kind', words.kind, input.kinds, input.filter.kind)}
${select('outcome', words.outcome, outcomes, input.filter.outcome)}
<button type="submit">${escapeHtml(words.filter)}</button>
</form>`;
  const detail = input.openTurn
    ? `<section class="card" id="turn"><h3>${escapeHtml(words.turn)} <code>${escapeHtml(input.openTurn.id)}</code></h3>
<dl><dt>${escapeHtml(words.channel)}</dt><dd>${escapeHtml(input.openTurn.sessionKey ?? input.openTurn.channel ?? '')}</dd><dt>${escapeHtml(words.user)}</dt><dd>${escapeHtml(input.openTurn.userId ?? '')}</dd><dt>${escapeHtml(words.origin)}</dt><dd>${escapeHtml(input.openTurn.origin)}</dd><dt>${escapeHtml(words.outcome)}</dt><dd>${escapeHtml(input.openTurn.outcome)}</dd></dl>
<table><thead><tr><th>${escapeHtml(words.when)}</th><th>${escapeHtml(words.steps)}</th></tr></thead><tbody>${input.openTurn.entries
        .map(
          (entry) =>
            `<tr><td>${escapeHtml(input.formatTime(entry.at))}</td><td>${stepLine(entry)}${entry.arguments === undefined ? '' : `<pre>${escapeHtml(JSON.stringify(entry.arguments, null, 2))}</pre>`}${entry.error === undefined ? '' : `<p class="bad">${escapeHtml(entry.error)}</p>`}${entry.reason === undefined ? '' : `<p class="muted">${escapeHtml(entry.reason)}</p>`}</td></tr>`,
        )
        .join('')}</tbody></table></section>`
    : '';
  const rows = input.turns
    .slice(0, 100)
    .map(
      (turn) =>
        `<tr><td>${escapeHtml(input.formatTime(turn.endedAt))}</td><td class="wide">${escapeHtml(turn.sessionKey ?? turn.channel ?? '')}</td><td><a href="/console/activity?turn=${encodeURIComponent(turn.id)}#turn">${turn.entries.map(stepLine).slice(0, 3).join('<br>')}${turn.entries.length > 3 ? ' …' : ''}</a></td><td class="${turn.outcome === 'ok' ? 'ok' : turn.outcome === 'waiting' ? 'muted' : 'bad'}">${escapeHtml(turn.outcome)}</td></tr>`,
    )
    .join('');
  const table = rows === '' ? `<p class="muted">${escapeHtml(words.none)}</p>` : `<table><thead><tr><th>${escapeHtml(words.when)}</th><th class="wide">${escapeHtml(words.channel)}</th><th>${escapeHtml(words.what)}</th><th>${escapeHtml(words.outcome)}</th></tr></thead><tbody>${rows}</tbody></table>`;
  return `<h2>${escapeHtml(strings.nav.activity)}</h2>${filters}${detail}${table}`;
}
