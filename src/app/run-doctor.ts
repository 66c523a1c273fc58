import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { telegramConfig } from '../../channels/telegram/telegram-config.js';
import { webhookConfig } from '../../channels/webhook/webhook-config.js';
import { wechatConfig } from '../../channels/wechat/wechat-config.js';
import { builtinTools } from '../../tools/index.js';
import { collectSecrets } from '../config/collect-secrets.js';
import { loadConfig } from '../config/load-config.js';
import { maskSecretText } from '../logging/mask-secrets.js';
import { checkDataFolder } from './doctor/check-data-folder.js';
import { checkModelEndpoints } from './doctor/check-model-endpoints.js';
import { checkStore } from './doctor/check-store.js';
import { checkTelegram } from './doctor/check-telegram.js';
import { checkWebhook, describeGatewayExposure } from './doctor/check-webhook.js';
import { checkWechat } from './doctor/check-wechat.js';
import { describeBudgets } from './doctor/describe-budgets.js';
import { describeConfig } from './doctor/describe-config.js';
import { describeExecSandboxLine } from './doctor/describe-exec-sandbox.js';
import { probeBubblewrap } from './doctor/probe-bubblewrap.js';
import { describeMcpServers } from './doctor/describe-mcp-servers.js';
import { describeNodeVersion } from './doctor/describe-node-version.js';
import { describeToolSets } from './doctor/describe-tool-sets.js';
import { execSandboxFor } from './exec-sandbox-for.js';
import { resolveToolSet } from '../policy/resolve-tool-set.js';
import type { DoctorLine } from './doctor/doctor-line.js';
import { doctorExitCode, formatDoctorReport } from './doctor/format-doctor-report.js';
import type { ParsedArguments } from './parse-arguments.js';
import { probeMcpServers } from './probe-mcp-servers.js';
import { channelConfigSections } from './builtin-channels.js';

/** Every network check gets this long; they run side by side, so the doctor answers in a few seconds even offline. */
const checkTimeoutMs = 3000;

/**
 * `npm run doctor [-- --json]`: one line per check (config, data folder, store, model endpoints,
 * channels, tool sets), ✓ fine, ✗ wrong, ! worth a look, – off. Exits 1 when a line is ✗, 2 when the
 * config is not valid. No secret is ever printed: lines name variables, never values, and the
 * output is scrubbed of every configured secret besides.
 */
export async function runDoctor(parsed: ParsedArguments): Promise<number> {
  const root = resolve(process.cwd());
  const json = parsed.flags.has('json');
  const loaded = loadConfig({ root, configFile: parsed.configFile, channels: channelConfigSections() });
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
  const [store, modelLines, telegramLines, wechatLines, webhookLines, mcp] = await Promise.all([
    dataLine.status === 'fail' && !config.storage.url ? undefined : checkStore({ url: config.storage.url, dataDir: config.storage.dataDir, timeoutMs: checkTimeoutMs }),
    checkModelEndpoints(config.model, checkTimeoutMs),
    checkTelegram(telegramConfig.read(config), checkTimeoutMs),
    checkWechat(wechatConfig.read(config)),
    checkWebhook(webhookConfig.read(config)),
    probeMcpServers(config, sandbox),
  ]);
  const probe = sandbox.mode === 'bwrap' && sandbox.bwrapPath !== undefined ? await probeBubblewrap({ bwrapPath: sandbox.bwrapPath, timeoutMs: checkTimeoutMs }) : undefined;
  const lines = [
    nodeLine,
    ...configLines,
    dataLine,
    ...(store === undefined ? [] : [store.line]),
    ...modelLines,
    ...telegramLines,
    ...wechatLines,
    ...webhookLines,
    ...[describeGatewayExposure(config)].filter((line) => line !== undefined),
    ...describeMcpServers(config, mcp),
    ...describeToolSets(config, [...builtinTools.map((tool) => tool.name), ...mcp.tools.map((tool) => tool.name)]),
    describeExecSandboxLine({ sandbox, execOffered: execOffered(config), probe }),
    ...describeBudgets(config),
  ];
  const exitCode = doctorExitCode(lines);
  write(lines, { json, secrets: collectSecrets(config, channelConfigSections()), exitCode });
  if (store?.abandoned) {
    // A Redis client that never connected keeps retrying and would hold the process open forever;
    // the report is written, so end it. Unref'd: it fires only if something is still holding on.
    setTimeout(() => process.exit(), 500).unref();
  }
  return exitCode;
}

/** Whether any channel (or the terminal and schedules) offers the exec tool. */
function execOffered(config: Parameters<typeof execSandboxFor>[0]): boolean {
  const names = builtinTools.map((tool) => tool.name);
  const [telegram, wechat, webhook] = [telegramConfig.read(config), wechatConfig.read(config), webhookConfig.read(config)];
  return [undefined, telegram.tools, wechat.tools, webhook.tools].some((channel) => resolveToolSet({ global: config.tools, channel }, names).names.has('exec'));
}

function write(lines: readonly DoctorLine[], options: { readonly json: boolean; readonly secrets: readonly string[]; readonly exitCode: number; readonly summary?: string }): void {
  const text = options.json ? `${JSON.stringify({ ok: options.exitCode === 0, exitCode: options.exitCode, checks: lines }, null, 2)}\n` : formatDoctorReport(lines, options.summary);
  process.stdout.write(maskSecretText(text, options.secrets));
}
