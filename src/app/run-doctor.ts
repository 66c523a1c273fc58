import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { builtinTools } from '../../tools/index.js';
import { collectSecrets } from '../config/collect-secrets.js';
import type { Config } from '../config/config-schema.js';
import { loadConfig } from '../config/load-config.js';
import { checkDataFolder } from '../doctor/check-data-folder.js';
import { checkGateway } from '../doctor/check-gateway.js';
import { describeBudgets } from '../doctor/describe-budgets.js';
import { describeHooks } from '../doctor/describe-hooks.js';
import { describeConsole } from '../doctor/describe-console.js';
import { describeClusterRoles } from '../doctor/describe-cluster-roles.js';
import { describeConfig } from '../doctor/describe-config.js';
import { describeNodeVersion } from '../doctor/describe-node-version.js';
import { describeToolSets, type ToolScope } from '../doctor/describe-tool-sets.js';
import type { DoctorLine } from '../doctor/doctor-line.js';
import { doctorExitCode, formatDoctorReport } from '../doctor/format-doctor-report.js';
import { probeBubblewrap } from '../doctor/probe-bubblewrap.js';
import { maskSecretText } from '../logging/mask-secrets.js';
import { resolveToolSet } from '../policy/resolve-tool-set.js';
import { builtinChannels, channelConfigSections } from './builtin-channels.js';
import type { ChannelAdapter } from '../channel/channel-adapter.js';
import { checkModelEndpoints } from './doctor/check-model-endpoints.js';
import { checkStore } from './doctor/check-store.js';
import { describeExecSandboxLine } from './doctor/describe-exec-sandbox.js';
import { describeMcpServers } from './doctor/describe-mcp-servers.js';
import { toolScopes } from './doctor/tool-scopes.js';
import { execSandboxFor } from './exec-sandbox-for.js';
import { isClusterStore } from './open-event-bus.js';
import type { ParsedArguments } from './parse-arguments.js';
import { probeMcpServers } from './probe-mcp-servers.js';

/** Every network check gets this long; they run side by side, so the doctor answers in a few seconds even offline. */
const checkTimeoutMs = 3000;

/**
 * `npm run doctor [-- --json]`: one line per check (config, data folder, store, model endpoints,
 * each channel's own lines, tool sets), ✓ fine, ✗ wrong, ! worth a look, – off. Exits 1 when a line is ✗, 2 when the
 * config is not valid. No secret is ever printed: lines name variables, never values, and the
 * output is scrubbed of every configured secret besides.
 */
export async function runDoctor(parsed: ParsedArguments, adapters: readonly ChannelAdapter[] = builtinChannels): Promise<number> {
  const root = resolve(process.cwd());
  const json = parsed.flags.has('json');
  const sections = channelConfigSections(adapters);
  const loaded = loadConfig({ root, configFile: parsed.configFile, channels: sections });
  const configLines = describeConfig(loaded, { root, dotenvFound: existsSync(join(root, '.env')) });
  const nodeLine = describeNodeVersion(process.version);
  if (!loaded.ok) {
    const summary = 'The configuration is not valid: fix the keys marked ✗ (docs/configuration.md lists every key), then run npm run doctor again.';
    write([nodeLine, ...configLines], { json, secrets: [], exitCode: 2, summary });
    return 2;
  }
  const { config } = loaded;
  const sandbox = execSandboxFor(config, { root: loaded.root, loadedFiles: loaded.loadedFiles });
  const dataLine = await checkDataFolder(config.storage.dataDir);
  const publicRoutes = adapters.some((adapter) => adapter.traits(config).publicRoutes === true);
  const [store, modelLines, gatewayLines, channelLines, mcp] = await Promise.all([
    dataLine.status === 'fail' && !config.storage.url ? undefined : checkStore({ url: config.storage.url, dataDir: config.storage.dataDir, timeoutMs: checkTimeoutMs }),
    checkModelEndpoints(config.model, checkTimeoutMs),
    checkGateway(config.gateway, publicRoutes),
    Promise.all(adapters.map((adapter) => adapter.doctor?.check({ config, channelName: adapter.name, timeoutMs: checkTimeoutMs, publicRoutes }) ?? [])),
    probeMcpServers(config, sandbox),
  ]);
  const probe = sandbox.mode === 'bwrap' && sandbox.bwrapPath !== undefined ? await probeBubblewrap({ bwrapPath: sandbox.bwrapPath, timeoutMs: checkTimeoutMs }) : undefined;
  const scopes = toolScopes(config, adapters);
  const lines = [
    nodeLine,
    ...configLines,
    dataLine,
    ...(store === undefined ? [] : [store.line]),
    ...modelLines,
    ...gatewayLines,
    ...describeConsole(config),
    ...channelLines.flat(),
    ...describeHooks(config, adapters.map((adapter) => adapter.name)),
    ...(isClusterStore(config.storage.url) ? describeClusterRoles(configuredChannels(config, adapters)) : []),
    ...describeMcpServers(config, mcp),
    ...describeToolSets(config, [...builtinTools.map((tool) => tool.name), ...mcp.tools.map((tool) => tool.name), ...Object.keys(config.a2a.peers).map((peer) => `a2a__${peer}`)], scopes),
    describeExecSandboxLine({ sandbox, execOffered: execOffered(config, scopes), probe }),
    ...describeBudgets(config),
  ];
  const exitCode = doctorExitCode(lines);
  write(lines, { json, secrets: collectSecrets(config, sections), exitCode });
  if (store?.abandoned) {
    // A Redis client that never connected keeps retrying and would hold the process open forever;
    // the report is written, so end it. Unref'd: it fires only if something is still holding on.
    setTimeout(() => process.exit(), 500).unref();
  }
  return exitCode;
}

/** Whether any scope offers the exec tool. */
function execOffered(config: Config, scopes: readonly ToolScope[]): boolean {
  const names = builtinTools.map((tool) => tool.name);
  return scopes.some((scope) => resolveToolSet({ global: config.tools, channel: scope.channel }, names).names.has('exec'));
}

/** The adapters the config turns on, with what they need in cluster mode. */
function configuredChannels(config: Config, adapters: readonly ChannelAdapter[]) {
  return adapters.filter((adapter) => adapter.doctor?.isConfigured(config) === true).map((adapter) => ({ name: adapter.name, cluster: adapter.traits(config).cluster }));
}

function write(lines: readonly DoctorLine[], options: { readonly json: boolean; readonly secrets: readonly string[]; readonly exitCode: number; readonly summary?: string }): void {
  const text = options.json ? `${JSON.stringify({ ok: options.exitCode === 0, exitCode: options.exitCode, checks: lines }, null, 2)}\n` : formatDoctorReport(lines, options.summary);
  process.stdout.write(maskSecretText(text, options.secrets));
}
