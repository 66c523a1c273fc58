import type { PendingApproval } from '../approvals/pending-approval.js';
import { periodKeysAt } from '../budgets/usage-period.js';
import { globalId } from '../budgets/usage-counters.js';
import { assertNever } from '../events/assert-never.js';
import type { HttpRequest, HttpResponse } from '../gateway/http-route.js';
import type { ConsoleDependencies } from './console-dependencies.js';
import type { ConsoleStrings } from './console-strings.js';
import { type ConsoleViewer, viewerSees } from './console-viewer.js';
import { filterTurns, groupTurns, type TurnFilter } from './group-turns.js';
import type { ModelCallLog } from './model-call-log.js';
import { renderActivityPage } from './render-activity-page.js';
import { renderApprovalsPage } from './render-approvals-page.js';
import { renderHealthPage } from './render-health-page.js';
import { type ConsolePageName, type Flash, renderPage } from './render-page.js';
import { renderSchedulesPage } from './render-schedules-page.js';
import { renderUsagePage } from './render-usage-page.js';

/** How many audit entries the activity view reads (the newest). */
const activityEntries = 2000;
const dayMs = 24 * 60 * 60_000;

/** A flash named by a fixed code in the query after an action (never text from the request). */
export type FlashFor = (code: string | undefined) => Flash | undefined;

/** Loads what one page shows and renders it for the viewer. */
export async function renderConsolePage(input: {
  readonly deps: ConsoleDependencies;
  readonly strings: ConsoleStrings;
  readonly viewer: ConsoleViewer;
  readonly page: ConsolePageName;
  readonly request: HttpRequest;
  readonly flash?: Flash;
  readonly modelCalls: ModelCallLog;
}): Promise<HttpResponse> {
  const { deps, strings, viewer, page, request } = input;
  const formatter = new Intl.DateTimeFormat(deps.locale, { timeZone: deps.timezone, month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit' });
  const formatTime = (iso: string) => {
    const date = new Date(iso);
    return Number.isNaN(date.getTime()) ? iso : formatter.format(date);
  };
  const body = await (async (): Promise<string> => {
    switch (page) {
      case 'approvals': {
        const records = (await deps.approvalRecords.entries()).map(([, approval]) => approval).filter((approval): approval is PendingApproval => approval !== undefined);
        return renderApprovalsPage({ strings, viewer, records, now: deps.now(), secrets: deps.secrets, formatTime });
      }
      case 'activity': {
        const entries = (await deps.audit.recent(activityEntries)).filter((entry) => viewerSees(viewer, { channel: entry.channel, userId: entry.userId, sessionKey: entry.sessionKey }));
        const turns = groupTurns(entries);
        const filter: TurnFilter = { channel: request.query.channel || undefined, user: request.query.user || undefined, origin: request.query.origin || undefined, kind: request.query.kind || undefined, outcome: request.query.outcome || undefined };
        const openTurn = request.query.turn === undefined ? undefined : turns.find((turn) => turn.id === request.query.turn);
        const channels = [...new Set(turns.map((turn) => turn.channel).filter((channel): channel is string => channel !== undefined))].sort();
        const kinds = [...new Set(entries.map((entry) => entry.kind))].sort();
        const modelCalls = input.modelCalls.recent().filter((call) => viewerSees(viewer, { channel: call.channel, sessionKey: call.sessionKey }) && (!filter.channel || call.channel === filter.channel));
        return renderActivityPage({ strings, viewer, turns: filterTurns(turns, filter), filter, openTurn, formatTime, channels, kinds, modelCalls, currency: deps.budgetsConfig.currency });
      }
      case 'usage': {
        const ledger = deps.budgets.ledger;
        const periods = ledger.periods();
        const dayKeys = Array.from({ length: 14 }, (_, index) => periodKeysAt(new Date(periods.dayStartsAt.getTime() - index * dayMs + dayMs / 2), deps.timezone).day).reverse();
        const days = await Promise.all(dayKeys.map(async (day) => ({ day, totals: await ledger.totals({ period: day, dimension: 'global', id: globalId }) })));
        const month = await ledger.list(periods.month);
        return renderUsagePage({ strings, viewer, figures: { days, month }, budgets: deps.budgetsConfig });
      }
      case 'schedules':
        return renderSchedulesPage({ strings, viewer, jobs: await deps.schedules.jobs(), formatTime });
      case 'health': {
        const [report, parked, instances] = await Promise.all([deps.health(), deps.parking.list().catch(() => []), deps.instances().catch(() => [])]);
        return renderHealthPage({ strings, viewer, report, instances, parked: parked.filter((turn) => viewerSees(viewer, { channel: turn.event.channel, sessionKey: turn.event.sessionKey })), formatTime });
      }
      default:
        return assertNever(page, 'console page');
    }
  })();
  return renderPage({ strings, lang: deps.locale, page, viewer, body, flash: input.flash });
}
