import { wechatConfig } from '../../../../channels/wechat/wechat-config.js';
import { describe, expect, it } from 'vitest';
import { checkWechatPuppet, needsPuppetToken } from '../../../../channels/wechat/check-wechat-puppet.js';
import { checkWechat, describeWechatPuppet, wechatWarnings } from '../../../../channels/wechat/wechat-doctor.js';
import { configWith } from '../../../fakes/config-with.js';

const settings = (wechat: Record<string, unknown> = {}) => wechatConfig.read(configWith({ channels: { wechat: { enabled: true, ...wechat } } }));
const missing = (specifier: string): string => {
  throw Object.assign(new Error(`Cannot find package '${specifier}'`), { code: 'ERR_MODULE_NOT_FOUND' });
};

describe('checkWechatPuppet', () => {
  it('finds an installed puppet without importing it', () => {
    expect(checkWechatPuppet({ puppet: 'wechaty-puppet-wechat4u' })).toEqual({ ok: true });
    expect(checkWechatPuppet({ puppet: 'wechaty-puppet-mock' })).toEqual({ ok: true });
  });

  it('says how to install a missing puppet', () => {
    expect(checkWechatPuppet({ puppet: 'wechaty-puppet-not-a-real-one' })).toEqual({ ok: false, reason: 'not-installed', installHint: 'npm i -E wechaty-puppet-not-a-real-one' });
  });

  it('wants a token for padlocal and service puppets', () => {
    const present = () => '/node_modules/wechaty-puppet-padlocal/index.js';
    expect(checkWechatPuppet({ puppet: 'wechaty-puppet-padlocal', resolve: present })).toEqual({ ok: false, reason: 'token-missing' });
    expect(checkWechatPuppet({ puppet: 'wechaty-puppet-padlocal', puppetToken: 'puppet_padlocal_x', resolve: present })).toEqual({ ok: true });
    expect(checkWechatPuppet({ puppet: 'wechaty-puppet-service', resolve: missing })).toMatchObject({ reason: 'not-installed' });
    expect(needsPuppetToken('wechaty-puppet-service')).toBe(true);
    expect(needsPuppetToken('wechaty-puppet-wechat4u')).toBe(false);
  });
});

describe('checkWechat', () => {
  it('is off unless WECHAT_ENABLED is true', async () => {
    expect(await checkWechat(wechatConfig.read(configWith()))).toEqual([{ status: 'off', subject: 'wechat', text: 'off: WECHAT_ENABLED is not true' }]);
  });

  it('fails a missing puppet with the npm command that installs it', async () => {
    const [line] = await checkWechat(settings({ puppet: 'wechaty-puppet-not-a-real-one', allowFrom: 'friend', approvers: 'friend' }));
    expect(line).toEqual({ status: 'fail', subject: 'wechat', text: 'the puppet wechaty-puppet-not-a-real-one is not installed: npm i -E wechaty-puppet-not-a-real-one' });
  });

  it('says the token is missing by its variable name', () => {
    expect(describeWechatPuppet({ ok: false, reason: 'token-missing' }, settings({ puppet: 'wechaty-puppet-padlocal' })).text).toBe('wechaty-puppet-padlocal needs a token: set WECHAT_PUPPET_TOKEN');
  });

  it('warns when nobody can reach the bot and nobody approves', () => {
    expect(wechatWarnings(settings()).map((line) => line.status)).toEqual(['warn', 'warn']);
    expect(wechatWarnings(settings({ rooms: 'room-1', approvers: 'boss' }))).toEqual([]);
  });
});
