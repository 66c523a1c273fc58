import type { HealthReport } from '../gateway/health-report.js';
import type { ParkedTurn } from '../journal/parked-turns.js';
import type { ConsoleStrings } from './console-strings.js';
import type { ConsoleViewer } from './console-viewer.js';
import type { InstanceSighting } from './instance-roster.js';
import { escapeHtml } from './escape-html.js';
import { csrfForm } from './render-page.js';

const stateClass = (state: string) => (state === 'running' || state === 'up' || state === 'ok' ? 'ok' : state === 'starting' ? 'muted' : 'bad');

/** The health page body: the /healthz report as tables, and the parked turns with Retry and Drop (approvers). */
export function renderHealthPage(input: { readonly strings: ConsoleStrings; readonly viewer: ConsoleViewer; readonly report: HealthReport; readonly instances: readonly InstanceSighting[]; readonly parked: readonly ParkedTurn[]; readonly formatTime: (iso: string) => string }): string {
  const { strings, report, viewer } = input;
  const words = strings.health;
  const rows = (entries: readonly (readonly [string, string, string])[]) => `<table><tbody>${entries.map(([name, state, detail]) => `<tr><td>${escapeHtml(name)}</td><td class="${stateClass(state)}">${escapeHtml(state)}</td><td>${escapeHtml(detail)}</td></tr>`).join('')}</tbody></table>`;
  const channels = rows(Object.entries(report.channels).map(([name, status]) => [name, status.state, status.detail ?? ''] as const));
  const mcp = report.mcp ? `<h2>${escapeHtml(words.mcp)}</h2>${rows(Object.entries(report.mcp).map(([name, status]) => [name, status.state, status.error ?? `${status.tools} tools`] as const))}` : '';
  const instance = `<dl><dt>id</dt><dd>${escapeHtml(report.instance.id)} (${escapeHtml(report.instance.mode)})</dd><dt>${escapeHtml(words.leads)}</dt><dd>${escapeHtml(report.instance.leads.join(', ') || '—')}</dd><dt>${escapeHtml(words.queue)}</dt><dd>${escapeHtml(report.instance.queueDepth)}</dd><dt>${escapeHtml(words.store)}</dt><dd class="${stateClass(report.store.state)}">${escapeHtml(report.store.state)}${report.store.lastError ? ` · ${escapeHtml(report.store.lastError)}` : ''}</dd><dt>${escapeHtml(words.uptime)}</dt><dd>${escapeHtml(Math.round(report.uptimeSeconds / 60))} min</dd></dl>`;
  const others = input.instances.filter((sighting) => sighting.id !== report.instance.id);
  const cluster =
    others.length === 0
      ? ''
      : `<h2>${escapeHtml(words.instances)}</h2><table><tbody>${input.instances
          .map((sighting) => `<tr><td>${escapeHtml(sighting.id)}${sighting.id === report.instance.id ? ` (${escapeHtml(words.thisOne)})` : ''}</td><td>${escapeHtml(sighting.mode)}</td><td>${escapeHtml(sighting.leads.join(', ') || '—')}</td><td class="wide">${escapeHtml(input.formatTime(sighting.seenAt))}</td></tr>`)
          .join('')}</tbody></table>`;
  const parked =
    input.parked.length === 0
      ? `<p class="muted">${escapeHtml(words.noParked)}</p>`
      : input.parked
          .map((turn) => {
            const actions = viewer.isApprover
              ? `<div class="actions">${csrfForm(viewer, '/console/act/parked', `<button type="submit" name="action" value="retry">${escapeHtml(words.retry)}</button><button type="submit" class="deny" name="action" value="drop">${escapeHtml(words.drop)}</button>`, { id: turn.id })}</div>`
              : '';
            return `<article class="card"><h3><code>${escapeHtml(turn.id)}</code> · ${escapeHtml(turn.event.sessionKey)}</h3><p>${escapeHtml(input.formatTime(turn.parkedAt))} · ${escapeHtml(turn.attempts)} × · ${escapeHtml(turn.reason)}</p>${actions}</article>`;
          })
          .join('');
  return `<h2>${escapeHtml(words.status)}: <span class="${stateClass(report.status)}">${escapeHtml(report.status)}</span></h2>
<h2>${escapeHtml(words.channels)}</h2>${channels}${mcp}
<h2>${escapeHtml(words.instance)}</h2><div class="card">${instance}</div>${cluster}
<h2>${escapeHtml(words.parked)}</h2>${parked}`;
}
