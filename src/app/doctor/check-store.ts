import { describeError } from '../../errors/echo-error.js';
import { createStore } from '../../store/create-store.js';
import type { Store } from '../../store/key-value-namespace.js';
import { type DoctorLine, doctorLine, formatSeconds } from '../../doctor/doctor-line.js';
import { isClusterStore } from '../open-event-bus.js';
import { probeTcp } from '../../doctor/probe-tcp.js';

/** The store line, and whether a store client was left behind still trying to connect (the process must then be ended). */
export type StoreCheck = { readonly line: DoctorLine; readonly abandoned: boolean };

/** Opens the configured store (a round trip, as at start-up) within the deadline, then closes it. Redis is first probed over TCP. */
export async function checkStore(options: { readonly url?: string; readonly dataDir: string; readonly timeoutMs: number }): Promise<StoreCheck> {
  const url = options.url ?? '';
  const startedAt = Date.now();
  const isRedis = url.startsWith('redis://') || url.startsWith('rediss://');
  if (isRedis) {
    const address = redisAddress(url);
    if (address === undefined) return { line: doctorLine('fail', 'store', `storage.url is not a valid redis url (${maskUrl(url)})`), abandoned: false };
    const probe = await probeTcp({ ...address, timeoutMs: options.timeoutMs });
    if (!probe.ok) return { line: doctorLine('fail', 'store', `cannot reach redis at ${address.host}:${address.port}: ${probe.reason}`), abandoned: false };
  }
  const opening = createStore({ url, dataDir: options.dataDir });
  let timer: NodeJS.Timeout | undefined;
  // One budget for the whole check: the TCP probe's time is taken out of the store's.
  const remainingMs = Math.max(500, options.timeoutMs - (Date.now() - startedAt));
  const deadline = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), remainingMs);
  });
  let outcome: Store | 'timeout';
  try {
    outcome = await Promise.race([opening, deadline]);
  } catch (error) {
    return { line: doctorLine('fail', 'store', describeError(error)), abandoned: false };
  } finally {
    clearTimeout(timer);
  }
  if (outcome === 'timeout') {
    // A store that opens late is closed then; a Redis client that never connects keeps retrying, which the caller must cut off.
    opening.then(
      (store) => store.close(),
      () => undefined,
    );
    const what = isRedis ? `redis at ${maskUrl(url)} accepted the connection but did not answer within ${formatSeconds(options.timeoutMs)} (a password or TLS problem?)` : `the store did not open within ${formatSeconds(options.timeoutMs)} (is another process holding the SQLite file?)`;
    return { line: doctorLine('fail', 'store', what), abandoned: isRedis };
  }
  const description = outcome.description;
  await outcome.close().catch(() => undefined);
  if (isClusterStore(url)) return { line: await describeCluster(url, description, options.timeoutMs), abandoned: false };
  if (url === 'memory:') return { line: doctorLine('warn', 'store', `${description}`), abandoned: false };
  return { line: doctorLine('ok', 'store', `${description} opens`), abandoned: false };
}

/** PostgreSQL: the server's version (cluster mode needs 13 or newer) and the state of the job queue. */
async function describeCluster(url: string, description: string, timeoutMs: number): Promise<DoctorLine> {
  // Loaded only for PostgreSQL: the doctor of a one-process setup never loads pg.
  const { describePostgres, oldestPostgresMajor } = await import('../../cluster/describe-postgres.js');
  const found = await describePostgres(url, timeoutMs);
  if (!found.ok) return doctorLine('fail', 'store', `${description}: ${found.error}`);
  const queue = found.queueInstalled ? 'the job queue is installed' : 'the job queue is installed at the first start';
  if (found.major < oldestPostgresMajor) return doctorLine('fail', 'store', `${description}: PostgreSQL ${found.version} is too old for cluster mode (${oldestPostgresMajor} or newer)`);
  return doctorLine('ok', 'store', `${description}: PostgreSQL ${found.version}, cluster mode (any number of instances may share it; ${queue})`);
}

/** A url with any user name and password replaced by `***`. Pure. */
export function maskUrl(url: string): string {
  return url.replace(/\/\/[^@/]*@/, '//***@');
}

function redisAddress(url: string): { host: string; port: number } | undefined {
  try {
    const parsed = new URL(url);
    const host = parsed.hostname.replace(/^\[|\]$/g, '') || '127.0.0.1';
    return { host, port: parsed.port === '' ? 6379 : Number(parsed.port) };
  } catch {
    return undefined;
  }
}
