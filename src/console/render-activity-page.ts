import type { ConsoleStrings } from './console-strings.js';
import type { ConsoleViewer } from './console-viewer.js';
import { escapeHtml } from './escape-html.js';
import type { LoggedModelCall } from './model-call-log.js';
import { type RecordedEntry, type RecordedTurn, type TurnFilter, turnOrigins } from './group-turns.js';

const outcomes = ['ok', 'failed', 'denied', 'waiting'] as const;
/** Model calls of the turn's conversation this close to its first and last step are shown with it. */
const aroundMs = 2 * 60_000;

/** One step of a turn in a line: what kind, which tool, the outcome, how long. */
function stepLine(entry: RecordedEntry): string {
  const tool = entry.tool === undefined ? '' : ` <code>${escapeHtml(entry.tool)}</code>`;
  const duration = entry.durationMs === undefined ? '' : ` · ${escapeHtml(entry.durationMs)} ms`;
  const by = entry.decidedBy === undefined ? '' : ` · ${escapeHtml(entry.decidedBy)}${entry.via === 'console' ? ' (console)' : ''}`;
  return `${escapeHtml(entry.kind)}${tool} → ${escapeHtml(entry.outcome)}${duration}${by}`;
}

/** The activity page body: filters, the turns as a timeline, and one turn's full steps when `openTurn` is given. */
export function renderActivityPage(input: { readonly strings: ConsoleStrings; readonly viewer: ConsoleViewer; readonly turns: readonly RecordedTurn[]; readonly filter: TurnFilter; readonly openTurn?: RecordedTurn; readonly formatTime: (iso: string) => string; readonly channels: readonly string[]; readonly kinds: readonly string[]; readonly modelCalls: readonly LoggedModelCall[]; readonly currency: string }): string {
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
  const window = input.openTurn === undefined ? undefined : { from: new Date(input.openTurn.startedAt).getTime() - aroundMs, to: new Date(input.openTurn.endedAt).getTime() + aroundMs, sessionKey: input.openTurn.sessionKey };
  // A call made inside the turn carries its trace id (the turn's id); one without (made outside a turn) is placed by time.
  const aroundTurn =
    window === undefined || input.openTurn === undefined
      ? []
      : input.modelCalls.filter((call) => (call.traceId === undefined ? call.sessionKey === window.sessionKey && new Date(call.at).getTime() >= window.from && new Date(call.at).getTime() <= window.to : call.traceId === input.openTurn?.id));
  const callRows = (calls: readonly LoggedModelCall[]) =>
    `<table><thead><tr><th>${escapeHtml(words.when)}</th><th class="wide">${escapeHtml(words.channel)}</th><th>${escapeHtml(words.model)}</th><th>${escapeHtml(words.tokens)}</th><th>${escapeHtml(words.duration)}</th></tr></thead><tbody>${calls
      .slice(0, 50)
      .map(
        (call) =>
          `<tr><td>${escapeHtml(input.formatTime(call.at))}</td><td class="wide">${escapeHtml(call.sessionKey ?? call.channel)} · ${escapeHtml(call.origin)}</td><td><code>${escapeHtml(call.model)}</code></td><td>${escapeHtml(call.inputTokens)} → ${escapeHtml(call.outputTokens)}${call.cachedInputTokens > 0 ? ` (${escapeHtml(call.cachedInputTokens)} cached)` : ''}${call.cost === undefined ? '' : ` · ${escapeHtml(call.cost.toFixed(4))} ${escapeHtml(input.currency)}`}</td><td>${call.durationMs === undefined ? '' : `${escapeHtml(call.durationMs)} ms`}</td></tr>`,
      )
      .join('')}</tbody></table>`;
  const turnCalls = aroundTurn.length === 0 ? '' : `<h3>${escapeHtml(words.modelCallsAround)}</h3>${callRows(aroundTurn)}`;
  const calls = input.modelCalls.length === 0 ? '' : `<h2>${escapeHtml(words.modelCalls)}</h2><p class="legend">${escapeHtml(words.modelCallsNote)}</p>${callRows(input.modelCalls)}`;
  return `<h2>${escapeHtml(strings.nav.activity)}</h2>${filters}${detail.replace('</section>', `${turnCalls}</section>`)}${table}${calls}`;
}
