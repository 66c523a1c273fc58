import type { ConsoleStrings } from './console-strings.js';
import type { ConsoleJob } from './console-dependencies.js';
import { type ConsoleViewer, viewerSees } from './console-viewer.js';
import { escapeHtml } from './escape-html.js';
import { csrfForm } from './render-page.js';

/** The schedules page body: each job with its schedule, next run and last runs; approvers may run it now or delete it. */
export function renderSchedulesPage(input: { readonly strings: ConsoleStrings; readonly viewer: ConsoleViewer; readonly jobs: readonly ConsoleJob[]; readonly formatTime: (iso: string) => string }): string {
  const { strings, viewer } = input;
  const words = strings.schedules;
  const visible = input.jobs.filter((job) => job.done !== true && (viewer.isApprover || viewerSees(viewer, { channel: job.target.channel, sessionKey: `${job.target.channel}:${job.target.chatId}` })));
  if (visible.length === 0) return `<h2>${escapeHtml(strings.nav.schedules)}</h2><p class="muted">${escapeHtml(words.none)}</p>`;
  const card = (job: ConsoleJob) => {
    const runs = (job.recentRuns ?? (job.lastRun ? [job.lastRun] : [])).slice(-5).reverse();
    const runLines = runs.map((run) => `<li class="${run.status === 'succeeded' ? 'ok' : run.status === 'running' || run.status === 'skipped' ? 'muted' : 'bad'}">${escapeHtml(input.formatTime(run.startedAt))} · ${escapeHtml(run.status)}${run.delivered === false ? ` · not delivered: ${escapeHtml(run.deliveryError ?? '')}` : ''}${run.error ? ` · ${escapeHtml(run.error)}` : ''}</li>`).join('');
    const actions = viewer.isApprover
      ? `<div class="actions">${csrfForm(viewer, '/console/act/schedule', `<button type="submit" name="action" value="run">${escapeHtml(words.runNow)}</button>${job.paused === undefined ? `<button type="submit" name="action" value="pause">${escapeHtml(words.pause)}</button>` : `<button type="submit" name="action" value="resume">${escapeHtml(words.resume)}</button>`}${job.source === 'tool' ? `<button type="submit" class="deny" name="action" value="delete">${escapeHtml(words.remove)}</button>` : ''}`, { id: job.id })}</div>`
      : '';
    return `<article class="card"><h3><code>${escapeHtml(job.id)}</code> · ${escapeHtml(job.source)}</h3><dl>
<dt>${escapeHtml(words.schedule)}</dt><dd><code>${escapeHtml(job.schedule)}</code> (${escapeHtml(job.timezone)})</dd>
<dt>${escapeHtml(words.next)}</dt><dd>${job.paused === undefined ? escapeHtml(job.nextRunAt ? input.formatTime(job.nextRunAt) : '—') : `<span class="bad">${escapeHtml(words.pausedBy(job.paused.by, input.formatTime(job.paused.at)))}</span>`}</dd>
<dt>${escapeHtml(words.target)}</dt><dd>${escapeHtml(`${job.target.channel}:${job.target.chatId}`)}</dd>
<dt>${escapeHtml(words.prompt)}</dt><dd>${escapeHtml(job.prompt)}</dd>
<dt>${escapeHtml(words.lastRun)}</dt><dd>${runLines === '' ? '—' : `<ul>${runLines}</ul>`}</dd></dl>${actions}</article>`;
  };
  return `<h2>${escapeHtml(strings.nav.schedules)}</h2>${visible.map(card).join('')}`;
}
