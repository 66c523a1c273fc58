import { formatArguments } from '../agent/format-arguments.js';
import type { PendingApproval } from '../approvals/pending-approval.js';
import type { ConsoleStrings } from './console-strings.js';
import { type ConsoleViewer, viewerSees } from './console-viewer.js';
import { escapeHtml } from './escape-html.js';
import { csrfForm } from './render-page.js';

/** Whether the viewer is among those who may decide this approval (the same test the approvals service makes). */
export function mayDecide(viewer: ConsoleViewer, approval: PendingApproval): boolean {
  return approval.approverChannel === viewer.person.channel && approval.approvers.includes(viewer.person.userId);
}

/** The approvals the viewer may see: ones they decide, and (for everyone) the ones asked in their own chats. */
export function visibleApprovals(viewer: ConsoleViewer, records: readonly PendingApproval[]): readonly PendingApproval[] {
  return records.filter((approval) => mayDecide(viewer, approval) || (viewer.isApprover ? approval.approverChannel === viewer.person.channel : viewerSees(viewer, { channel: approval.channel, userId: approval.requester.id, sessionKey: approval.sessionKey })));
}

/** The approvals page body: pending cards with Approve/Deny (for those who may decide), then the decided history. */
export function renderApprovalsPage(input: { readonly strings: ConsoleStrings; readonly viewer: ConsoleViewer; readonly records: readonly PendingApproval[]; readonly now: Date; readonly secrets: readonly string[]; readonly formatTime: (iso: string) => string }): string {
  const { strings, viewer } = input;
  const visible = visibleApprovals(viewer, input.records);
  const pending = visible.filter((approval) => approval.status === 'pending' && new Date(approval.expiresAt) > input.now).sort((left, right) => right.createdAt.localeCompare(left.createdAt));
  const decided = visible.filter((approval) => approval.status !== 'pending').sort((left, right) => (right.decidedAt ?? '').localeCompare(left.decidedAt ?? '')).slice(0, 50);
  const card = (approval: PendingApproval) => {
    const minutes = Math.floor((input.now.getTime() - new Date(approval.createdAt).getTime()) / 60_000);
    const buttons = mayDecide(viewer, approval)
      ? `<div class="actions">${csrfForm(viewer, '/console/act/decide', `<button type="submit" class="approve" name="choice" value="once">${escapeHtml(strings.approve)}</button><button type="submit" class="deny" name="choice" value="deny">${escapeHtml(strings.deny)}</button>`, { id: approval.id })}</div>`
      : '';
    return `<article class="card" data-approval="${escapeHtml(approval.id)}">
<h3>${escapeHtml(approval.summary)}</h3>
<dl>
<dt>${escapeHtml(strings.tool)}</dt><dd><code>${escapeHtml(approval.toolName)}</code></dd>
<dt>${escapeHtml(strings.risk)}</dt><dd class="risk-${escapeHtml(approval.risk)}">${escapeHtml(approval.risk)}</dd>
<dt>${escapeHtml(strings.askedBy)}</dt><dd>${escapeHtml(approval.requester.displayName)}</dd>
<dt>${escapeHtml(strings.chat)}</dt><dd>${escapeHtml(`${approval.origin.channel}:${approval.origin.chatId}`)}</dd>
<dt>${escapeHtml(strings.age)}</dt><dd>${escapeHtml(strings.minutesAgo(minutes))}</dd>
${approval.explanation === undefined ? '' : `<dt>${escapeHtml(strings.explanation)}</dt><dd>${escapeHtml(approval.explanation)}</dd>`}
${approval.reason === '' ? '' : `<dt>${escapeHtml(strings.whyAsked)}</dt><dd>${escapeHtml(approval.reason)}</dd>`}
</dl>
<details open><summary>${escapeHtml(strings.arguments)}</summary><pre>${escapeHtml(formatArguments(approval.input, input.secrets))}</pre></details>
${buttons}
</article>`;
  };
  const row = (approval: PendingApproval) => {
    const via = approval.decidedVia === 'console' ? strings.viaConsole : strings.viaChat;
    const who = approval.status === 'expired' || approval.status === 'superseded' || approval.status === 'cancelled' ? approval.status : strings.decidedBy(approval.decidedBy ?? '?', input.formatTime(approval.decidedAt ?? approval.createdAt), via);
    return `<tr><td>${escapeHtml(approval.status)}${approval.scope && approval.scope !== 'once' ? ` (${escapeHtml(approval.scope)})` : ''}</td><td><code>${escapeHtml(approval.toolName)}</code> ${escapeHtml(approval.summary)}</td><td class="wide">${escapeHtml(approval.requester.displayName)}</td><td>${escapeHtml(who)}</td></tr>`;
  };
  return [
    `<h2>${escapeHtml(strings.pending)} (${pending.length})</h2>`,
    pending.length === 0 ? `<p class="muted">${escapeHtml(strings.noPending)}</p>` : pending.map(card).join('\n'),
    `<h2>${escapeHtml(strings.decided)}</h2>`,
    decided.length === 0 ? `<p class="muted">${escapeHtml(strings.noDecided)}</p>` : `<table><tbody>${decided.map(row).join('')}</tbody></table>`,
  ].join('\n');
}
