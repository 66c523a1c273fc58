import { checkTelegram } from '../../src/app/doctor/check-telegram.js';
import { checkWebhook, describeGatewayExposure } from '../../src/app/doctor/check-webhook.js';
import { checkWechat } from '../../src/app/doctor/check-wechat.js';
import type { DoctorLine } from '../../src/app/doctor/doctor-line.js';
import type { Config } from '../../src/config/config-schema.js';

/**
 * The channel lines of `npm run doctor` for a config, as run-doctor.ts assembles them today (it reads the config
 * from files and prints, so the contract calls its channel checks the same way). When doctor checks become adapter
 * contributions, the harnesses' `doctorLines` hooks point at the adapters' checks instead and this file goes.
 */
export async function doctorLinesToday(config: Config): Promise<readonly DoctorLine[]> {
  const [telegramLines, wechatLines, webhookLines] = await Promise.all([
    checkTelegram(config.channels.telegram, 3000),
    checkWechat(config.channels.wechat),
    checkWebhook({ ...config.channels.webhook, ...config.gateway }),
  ]);
  return [...telegramLines, ...wechatLines, ...webhookLines, ...[describeGatewayExposure(config)].filter((line) => line !== undefined)];
}
