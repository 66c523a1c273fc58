import type { WechatyOptions } from 'wechaty';

/** What the channel uses from the wechaty package, loaded on demand. */
export type WechatyModule = typeof import('wechaty');

/** A puppet instance, for tests that bring their own (wechaty-puppet-mock). */
export type WechatyPuppet = Exclude<NonNullable<WechatyOptions['puppet']>, string>;

/**
 * Imports wechaty (166 MB, about 1.3 s) only when the WeChat channel starts, so start-up without
 * WeChat never pays for it; nothing else may import wechaty at run time. wechaty logs through its own
 * logger (brolog) to stderr: it is kept quiet unless ours (`logLevel`, a pino level) is verbose.
 */
export async function loadWechaty(options: { readonly logLevel: string }): Promise<WechatyModule> {
  const wechaty = await import('wechaty');
  wechaty.log.level(brologLevel(options.logLevel));
  return wechaty;
}

function brologLevel(level: string): 'silent' | 'error' | 'warn' | 'info' | 'verbose' {
  switch (level) {
    case 'silent':
    case 'fatal':
      return 'silent';
    case 'error':
      return 'error';
    case 'debug':
      return 'info';
    case 'trace':
      return 'verbose';
    default:
      return 'warn';
  }
}
