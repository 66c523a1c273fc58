import { PassThrough } from 'node:stream';
import type { HttpResponse } from '../gateway/http-route.js';
import type { ConsoleDependencies } from './console-dependencies.js';
import { type ConsoleViewer, viewerSees } from './console-viewer.js';
import { consoleSecurityHeaders } from './render-page.js';

/** How often a quiet stream sends a comment, so proxies keep it open. */
const heartbeatMs = 25_000;

/**
 * The live stream of a page (server-sent events): an `update` event for every audit entry (a tool call, an approval
 * asked or decided) and every finished turn the viewer may see; the page's script fetches itself again. Events of
 * this instance only: in a cluster, another instance's turns show on the next load.
 */
export function openLiveStream(deps: Pick<ConsoleDependencies, 'telemetry'>, viewer: ConsoleViewer, closed: AbortSignal): HttpResponse {
  const stream = new PassThrough();
  const send = (kind: string) => {
    if (!stream.writableEnded) stream.write(`event: update\ndata: ${JSON.stringify({ kind })}\n\n`);
  };
  const stopAudit = deps.telemetry.onAudit((entry) => {
    if (viewerSees(viewer, { channel: entry.channel, userId: entry.userId, sessionKey: entry.sessionKey })) send(entry.kind);
  });
  const stopTurns = deps.telemetry.onTurnFinished((report) => {
    if (viewerSees(viewer, { sessionKey: report.sessionKey })) send(`turn-${report.status}`);
  });
  const heartbeat = setInterval(() => stream.write(': ping\n\n'), heartbeatMs);
  heartbeat.unref();
  const end = () => {
    clearInterval(heartbeat);
    stopAudit();
    stopTurns();
    stream.end();
  };
  if (closed.aborted) end();
  else closed.addEventListener('abort', end, { once: true });
  stream.on('close', end);
  stream.write('retry: 3000\n\n');
  return { status: 200, body: stream, headers: { ...consoleSecurityHeaders, 'content-type': 'text/event-stream; charset=utf-8', 'x-accel-buffering': 'no' } };
}
