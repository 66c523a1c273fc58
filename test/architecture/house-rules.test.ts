// biome-ignore-all lint/suspicious/noTemplateCurlyInString: lines of code quoted as text, placeholders included.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repositoryRoot } from '../fakes/run-compiled.js';
import { channelFolderNames, channelMentionsIn, findChannelMentions } from './find-channel-mentions.js';

function sourceFiles(folder: string, pattern = /\.ts$/): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(join(repositoryRoot, folder), { withFileTypes: true })) {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) found.push(...sourceFiles(path, pattern));
    else if (pattern.test(entry.name)) found.push(path);
  }
  return found;
}

const production = [...sourceFiles('src'), ...sourceFiles('channels'), ...sourceFiles('tools')];
const importsOf = (file: string) => [...readFileSync(join(repositoryRoot, file), 'utf8').matchAll(/(?:from|import)\s*\(?\s*'([^']+)'/g)].map((match) => match[1] ?? '');

/** Each SDK and the only folders allowed to import it. */
const sdkHomes: Readonly<Record<string, readonly string[]>> = {
  telegraf: ['channels/telegram/'],
  wechaty: ['channels/wechat/'],
  koa: ['src/gateway/'],
  '@koa/router': ['src/gateway/'],
  '@koa/bodyparser': ['src/gateway/'],
  'node-cron': ['src/scheduler/'],
  '@octokit/webhooks-methods': ['src/hooks/'],
  standardwebhooks: ['src/hooks/'],
  openai: ['src/agent/providers/openai/'],
  '@anthropic-ai/sdk': ['src/agent/providers/anthropic/'],
  '@modelcontextprotocol/client': ['tools/mcp/'],
  '@a2a-js/sdk': ['channels/a2a-server/', 'tools/a2a/'],
  '@modelcontextprotocol/server': ['src/mcp-server/'],
  ajv: ['tools/mcp/'],
  re2js: ['tools/mcp/'],
  'pg-boss': ['src/cluster/'],
  pg: ['src/cluster/', 'src/store/'],
  '@opentelemetry/api': ['src/tracing/'],
  '@opentelemetry/sdk-trace-base': ['src/tracing/'],
  '@opentelemetry/sdk-trace-node': ['src/tracing/'],
  '@opentelemetry/exporter-trace-otlp-http': ['src/tracing/'],
  '@opentelemetry/semantic-conventions': ['src/tracing/'],
  '@opentelemetry/resources': ['src/tracing/'],
};

/**
 * The layers of src/, bottom first (docs/architecture.md, "Layers"): a folder imports only folders of lower layers.
 * Folders of one layer do not import each other.
 */
const srcLayers: readonly (readonly string[])[] = [
  ['errors', 'time', 'markdown', 'model', 'retry'],
  ['config', 'store', 'events'],
  ['logging', 'dedupe', 'scheduling', 'i18n'],
  ['bus', 'policy'],
  ['registry'],
  ['budgets', 'telemetry', 'media', 'journal'],
  ['approvals', 'tracing'],
  ['reviewer', 'memory'],
  ['cluster', 'agent'],
  ['gateway', 'scheduler', 'doctor'],
  ['channel', 'mcp-server', 'hooks', 'console'],
  ['app'],
  ['cli'],
];
/** The process entry point (npm scripts run dist/src/app/main.js): it dispatches to the commands of src/cli/, above it. */
const entryPoint = 'src/app/main.ts';
const layerOf = new Map(srcLayers.flatMap((folders, layer) => folders.map((folder) => [folder, layer] as const)));
const srcFolderOf = (file: string) => file.split('/')[1] ?? '';

describe('house rules (docs/naming.md), checked on every file', () => {
  it('outside channels/<name>/, no code names a channel (any folder of channels/), but the one list of built-in adapters', () => {
    // Comments may use a channel as an example; strings and identifiers are code (`'telegram'`, `telegramCommands`, `TELEGRAM_BOT_TOKEN`).
    // The Standard Webhooks verifier speaks that protocol's vocabulary (headers webhook-id, -timestamp, -signature and its
    // library's class Webhook), which only happens to spell a channel's name; nothing else in src/hooks/ may.
    const protocolVocabulary = 'src/hooks/verify-standard-webhooks.ts';
    const files = [...sourceFiles('src'), ...sourceFiles('tools'), ...sourceFiles('scripts', /\.(ts|mjs|js)$/)].filter((file) => file !== 'src/app/builtin-channels.ts' && file !== protocolVocabulary);
    const mentions = findChannelMentions({ repositoryRoot, files, names: channelFolderNames(repositoryRoot) });
    // No exemptions: a trust origin, an operator, an environment variable of core infrastructure all have names of their own.
    expect(mentions.map((mention) => `${mention.file}:${mention.line}: ${mention.text}`)).toEqual([]);
  });

  it('the channel-name check sees identifiers, environment variables and strings, and skips comments and other module paths', () => {
    const sample = [
      "const a = messages.telegramCommands;",
      "const b = 'TELEGRAM_BOT_TOKEN';",
      "// telegram in a comment is an example",
      "/** WeChat, in TSDoc */ const client = 1;",
      "import { run } from './cli/run-start.js';",
      "import { x } from '../../channels/wechat/index.js';",
      "const c = `${name}:wechat`;",
      'const kind = SpanKind.CLIENT; // an upper-case word that only begins like a channel (cli)',
      "const d = 'CLI_TOKEN';",
    ].join('\n');
    expect(channelMentionsIn(sample, ['telegram', 'wechat', 'cli']).map((mention) => mention.line)).toEqual([1, 2, 6, 7, 9]);
  });

  it('nothing outside src/app/ imports src/app/, but the commands of src/cli/ (the composition root sits on top; tests may)', () => {
    const offenders = production
      .filter((file) => !file.startsWith('src/app/') && !file.startsWith('src/cli/'))
      .flatMap((file) =>
        importsOf(file)
          .filter((specifier) => specifier.startsWith('.'))
          .map((specifier) => relative(repositoryRoot, join(repositoryRoot, file, '..', specifier)).replaceAll('\\', '/'))
          .filter((target) => target.startsWith('src/app/'))
          .map((target) => `${file} imports ${target}`),
      );
    expect(offenders).toEqual([]);
  });

  it('the folders of src/ respect the layer order of docs/architecture.md: no import runs back up', () => {
    const offenders: string[] = [];
    for (const file of production.filter((candidate) => candidate.startsWith('src/') && candidate !== entryPoint)) {
      const from = srcFolderOf(file);
      for (const specifier of importsOf(file).filter((candidate) => candidate.startsWith('.'))) {
        const target = relative(repositoryRoot, join(repositoryRoot, file, '..', specifier)).replaceAll('\\', '/');
        if (!target.startsWith('src/') || target.split('/').length <= 2) continue;
        const to = srcFolderOf(target);
        if (to === from) continue;
        const fromLayer = layerOf.get(from);
        const toLayer = layerOf.get(to);
        if (fromLayer === undefined) offenders.push(`${file}: src/${from}/ has no layer (add it to srcLayers)`);
        else if (toLayer === undefined) offenders.push(`${file}: src/${to}/ has no layer (add it to srcLayers)`);
        else if (toLayer >= fromLayer) offenders.push(`${file} (layer ${fromLayer}) imports ${target} (layer ${toLayer})`);
      }
    }
    expect([...new Set(offenders)]).toEqual([]);
  });

  it('the folders of src/ import each other without a cycle', () => {
    const folderOf = (file: string) => file.split('/')[1] ?? '';
    const edges = new Map<string, Set<string>>();
    for (const file of production.filter((candidate) => candidate.startsWith('src/') && candidate !== entryPoint)) {
      const from = folderOf(file);
      for (const specifier of importsOf(file).filter((candidate) => candidate.startsWith('.'))) {
        const target = relative(repositoryRoot, join(repositoryRoot, file, '..', specifier)).replaceAll('\\', '/');
        if (!target.startsWith('src/')) continue;
        const to = folderOf(target);
        if (to !== from && target.split('/').length > 2) edges.set(from, new Set([...(edges.get(from) ?? []), to]));
      }
    }
    const cycles: string[] = [];
    const visit = (folder: string, path: readonly string[]) => {
      for (const next of edges.get(folder) ?? []) {
        if (path.includes(next)) cycles.push([...path.slice(path.indexOf(next)), next].join(' → '));
        else visit(next, [...path, next]);
      }
    };
    for (const folder of edges.keys()) visit(folder, [folder]);
    expect([...new Set(cycles)]).toEqual([]);
  });

  it('src/ never imports channels/ or tools/, except the composition root in src/app/ and the commands on it in src/cli/', () => {
    const offenders = production
      .filter((file) => file.startsWith('src/') && !file.startsWith('src/app/') && !file.startsWith('src/cli/'))
      .filter((file) => importsOf(file).some((specifier) => /(^|\/)(channels|tools)\//.test(specifier) && specifier.startsWith('.')));
    expect(offenders).toEqual([]);
  });

  it('an SDK is imported only inside its own adapter folder', () => {
    const offenders: string[] = [];
    for (const file of production) {
      for (const specifier of importsOf(file)) {
        const sdk = Object.keys(sdkHomes).find((name) => specifier === name || specifier.startsWith(`${name}/`));
        if (sdk && !(sdkHomes[sdk] ?? []).some((home) => file.startsWith(home))) offenders.push(`${file} imports ${specifier}`);
      }
    }
    expect(offenders).toEqual([]);
  });

  it('nothing outside src/config/ reads process.env', () => {
    const code = (file: string) =>
      readFileSync(join(repositoryRoot, file), 'utf8')
        .split('\n')
        .filter((line) => !/^\s*(\/\/|\/\*\*|\*)/.test(line))
        .join('\n');
    const offenders = production.filter((file) => !file.startsWith('src/config/') && /process\.env\b/.test(code(file)));
    expect(offenders).toEqual([]);
  });

  it('index.ts files only re-export', () => {
    const offenders = production
      .filter((file) => file.endsWith('/index.ts'))
      .filter((file) =>
        readFileSync(join(repositoryRoot, file), 'utf8')
          .split('\n')
          .some((line) => line.trim() !== '' && !line.startsWith('export ') && !line.startsWith('//') && !line.startsWith(' *') && !line.startsWith('/**')),
      );
    expect(offenders.map((file) => relative(repositoryRoot, join(repositoryRoot, file)))).toEqual([]);
  });

  it('the composition root stays readable: no file in src/app/ over 200 lines, createApp under 120', () => {
    const lineCount = (file: string) => readFileSync(join(repositoryRoot, file), 'utf8').split('\n').length;
    const long = production.filter((file) => file.startsWith('src/app/') && lineCount(file) > 200).map((file) => `${file}: ${lineCount(file)} lines`);
    expect(long).toEqual([]);
    const root = readFileSync(join(repositoryRoot, 'src/app/create-app.ts'), 'utf8');
    const body = /^export async function createApp\([\s\S]*?^}$/m.exec(root)?.[0] ?? '';
    expect(body).not.toBe('');
    expect(body.split('\n').length).toBeLessThan(120);
  });

  it('file names are kebab-case', () => {
    const offenders = production.filter((file) => !/^[a-z0-9]+(-[a-z0-9]+)*\.ts$/.test(file.split('/').at(-1) ?? ''));
    expect(offenders).toEqual([]);
  });
});
