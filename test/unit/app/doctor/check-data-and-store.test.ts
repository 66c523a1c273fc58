import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { checkDataFolder, describeFileError } from '../../../../src/doctor/check-data-folder.js';
import { checkStore, maskUrl } from '../../../../src/app/doctor/check-store.js';
import { createScratchDatabase, isPostgresUp } from '../../../contracts/scratch-postgres.js';

const postgresUp = await isPostgresUp();

const scratch = mkdtempSync(join(tmpdir(), 'echo-doctor-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('checkDataFolder', () => {
  it('creates a missing folder and leaves no probe file behind', async () => {
    const folder = join(scratch, 'new', 'data');
    const line = await checkDataFolder(folder);
    expect(line).toEqual({ status: 'ok', subject: 'data', text: `${folder} is writable (created it)` });
    expect(readdirSync(folder)).toEqual([]);
  });

  it('fails when a file is in the way, and says what to set', async () => {
    const file = join(scratch, 'a-file');
    writeFileSync(file, 'x');
    const line = await checkDataFolder(join(file, 'data'));
    expect(line.status).toBe('fail');
    expect(line.text).toContain('ECHO_DATA_DIR');
  });

  it('names common file-system errors in words', () => {
    expect(describeFileError(Object.assign(new Error('x'), { code: 'EACCES' }))).toBe('permission denied');
  });
});

describe('checkStore', () => {
  it('opens the SQLite file in the data folder and closes it again', async () => {
    const folder = join(scratch, 'store');
    const check = await checkStore({ dataDir: folder, timeoutMs: 3000 });
    expect(check.line).toEqual({ status: 'ok', subject: 'store', text: `sqlite ${join(folder, 'echo.sqlite')} opens` });
    expect(check.abandoned).toBe(false);
    expect(existsSync(join(folder, 'echo.sqlite'))).toBe(true);
  });

  it('says which redis cannot be reached, with the password masked, and leaves nothing running', async () => {
    // A port that was just free: nothing listens there.
    const server: Server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const address = server.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    await new Promise<void>((resolve) => server.close(() => resolve()));
    const check = await checkStore({ url: `redis://user:redis-password-1@127.0.0.1:${port}`, dataDir: scratch, timeoutMs: 3000 });
    expect(check.line).toEqual({ status: 'fail', subject: 'store', text: `cannot reach redis at 127.0.0.1:${port}: connection refused` });
    expect(check.abandoned).toBe(false);
  });

  it('reports a storage url of an unknown kind in one sentence', async () => {
    const check = await checkStore({ url: 'mongodb://db/echo', dataDir: scratch, timeoutMs: 3000 });
    expect(check.line.status).toBe('fail');
    expect(check.line.text).toContain('storage.url must be empty, sqlite://FILE, redis://HOST:PORT or postgres://USER@HOST:PORT/DATABASE');
  });

  it.skipIf(!postgresUp)('shows the PostgreSQL version and cluster mode (a scratch database)', async () => {
    const database = await createScratchDatabase();
    try {
      const check = await checkStore({ url: database.url, dataDir: scratch, timeoutMs: 5000 });
      expect(check.line.status).toBe('ok');
      expect(check.line.text).toMatch(/: PostgreSQL \d+\.\d+.*, cluster mode \(any number of instances may share it; the job queue is installed at the first start\)$/);
    } finally {
      await database.drop();
    }
  });

  it.skipIf(!postgresUp)('says why PostgreSQL cannot be used, in one line', async () => {
    const check = await checkStore({ url: 'postgres://postgres@127.0.0.1:5432/echo_no_such_database', dataDir: scratch, timeoutMs: 5000 });
    expect(check.line.status).toBe('fail');
    expect(check.line.text).toContain('does not exist');
  });

  it('masks credentials in urls', () => {
    expect(maskUrl('redis://user:pw@cache:6379/0')).toBe('redis://***@cache:6379/0');
    expect(maskUrl('redis://cache:6379')).toBe('redis://cache:6379');
  });
});
