import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// Measured the way `npm start` runs: compiled JS in a fresh Node process, with a loader hook that
// records every module Node resolves. No timing: wechaty costs about 1.3 s only if it is loaded at all.
const repositoryRoot = resolve(import.meta.dirname, '..', '..', '..', '..');
const workDir = mkdtempSync(join(tmpdir(), 'echo-lazy-wechat-'));
const outDir = join(workDir, 'out');
const resolvedLog = join(workDir, 'resolved.log');

const hooksSource = `
import { appendFileSync } from 'node:fs';
let log;
export function initialize(data) { log = data.log; }
export async function resolve(specifier, context, nextResolve) {
  const result = await nextResolve(specifier, context);
  appendFileSync(log, result.url + '\\n');
  return result;
}
`;

const probeSource = `
import { appendFileSync } from 'node:fs';
import { register } from 'node:module';
const [log, dataDir, root] = process.argv.slice(2);
register('./hooks.mjs', import.meta.url, { data: { log } });
const mark = (label) => appendFileSync(log, '#' + label + '\\n');
const { loadConfig } = await import('./src/config/load-config.js');
const { channelConfigSections } = await import('./src/app/builtin-channels.js');
const { createLogger } = await import('./src/logging/create-logger.js');
const { createApp } = await import('./src/app/create-app.js');
mark('imported');
for (const enabled of ['false', 'true']) {
  const loaded = loadConfig({ channels: channelConfigSections(), root, environment: { ECHO_DATA_DIR: dataDir + '/' + enabled, ECHO_LOG_LEVEL: 'silent', OPENAI_API_KEY: 'test-key', WECHAT_ENABLED: enabled, GATEWAY_PORT: '0' } });
  if (!loaded.ok) throw new Error(loaded.errors.join('; '));
  const logger = await createLogger({ level: 'silent', pretty: false });
  const created = await createApp({ config: loaded.config, logger, mode: 'server' });
  if (!created.ok) throw new Error(created.error);
  mark('created wechat=' + enabled + ' channels=' + [...created.app.channels.keys()].join(','));
  await created.app.store.close();
}
// The control: loading the channel's SDK the way start() does must show up in the same record.
const { loadWechaty } = await import('./channels/wechat/load-wechaty.js');
await loadWechaty({ logLevel: 'silent' });
mark('loaded');
process.exit(0);
`;

/** The resolved module URLs between two markers of the probe's record. */
function section(lines: readonly string[], from: string | undefined, to: string): readonly string[] {
  const start = from === undefined ? 0 : lines.findIndex((line) => line.startsWith(`#${from}`)) + 1;
  const end = lines.findIndex((line) => line.startsWith(`#${to}`));
  return lines.slice(start, end);
}

const isWechaty = (url: string) => url.includes('/node_modules/wechaty/') || url.includes('/node_modules/wechaty-puppet');

let lines: readonly string[] = [];
let probeOutput = '';

beforeAll(() => {
  symlinkSync(join(repositoryRoot, 'node_modules'), join(workDir, 'node_modules'), 'dir');
  // Type errors elsewhere in the tree do not stop tsc from emitting; the probe needs the JS only.
  spawnSync(process.execPath, [join(repositoryRoot, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', join(repositoryRoot, 'tsconfig.build.json'), '--outDir', outDir, '--sourceMap', 'false'], { encoding: 'utf8' });
  if (!existsSync(join(outDir, 'src', 'app', 'create-app.js'))) throw new Error('tsc did not emit src/app/create-app.js');
  writeFileSync(join(outDir, 'hooks.mjs'), hooksSource);
  writeFileSync(join(outDir, 'probe.mjs'), probeSource);
  writeFileSync(resolvedLog, '');
  const probe = spawnSync(process.execPath, [join(outDir, 'probe.mjs'), resolvedLog, join(workDir, 'data'), repositoryRoot], { encoding: 'utf8', cwd: outDir });
  probeOutput = `${probe.stdout}${probe.stderr}`;
  lines = readFileSync(resolvedLog, 'utf8').split('\n').filter((line) => line !== '');
}, 120_000);

afterAll(() => rmSync(workDir, { recursive: true, force: true }));

describe('start-up without WeChat', () => {
  it('the probe ran to the end', () => {
    expect(lines.includes('#loaded'), probeOutput).toBe(true);
  });

  it('importing the composition root does not load wechaty (and the record does see the app modules)', () => {
    const imported = section(lines, undefined, 'imported');
    expect(imported.some((url) => url.endsWith('/src/app/create-app.js'))).toBe(true);
    expect(imported.filter(isWechaty)).toEqual([]);
  });

  it('building the app with WECHAT_ENABLED=false, or true but not started, does not load wechaty', () => {
    const created = section(lines, 'imported', 'created wechat=true');
    expect(lines.some((line) => line.startsWith('#created wechat=false channels=') && !line.includes('wechat', '#created wechat=false'.length))).toBe(true);
    expect(lines.some((line) => line.startsWith('#created wechat=true channels=') && line.includes('wechat'))).toBe(true);
    expect(created.filter(isWechaty)).toEqual([]);
  });

  it('the record catches wechaty when the channel does load it', () => {
    expect(section(lines, 'created wechat=true', 'loaded').some(isWechaty)).toBe(true);
  });
});
