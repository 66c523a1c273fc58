/** Whether the configured puppet package is installed, and whether it has the token it needs. */
export type WechatPuppetCheck =
  | { readonly ok: true }
  | { readonly ok: false; readonly reason: 'not-installed'; readonly installHint: string }
  | { readonly ok: false; readonly reason: 'not-importable'; readonly code: string }
  | { readonly ok: false; readonly reason: 'token-missing' };

// Puppets that talk to a paid or self-hosted gateway and cannot log in without a token.
const tokenPuppets = /^(?:@[^/]+\/)?wechaty-puppet-(?:padlocal|service)$/;

/**
 * Resolves the puppet package the way wechaty's `import()` will, without importing it or wechaty
 * (which costs seconds and starts nothing useful here). The resolver is injectable for tests.
 */
export function checkWechatPuppet(options: { readonly puppet: string; readonly puppetToken?: string; readonly resolve?: (specifier: string) => string }): WechatPuppetCheck {
  const resolve = options.resolve ?? ((specifier: string) => import.meta.resolve(specifier));
  try {
    resolve(options.puppet);
  } catch (error) {
    const code = (error as { code?: unknown } | undefined)?.code;
    if (code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND' || code === undefined) return { ok: false, reason: 'not-installed', installHint: `npm i -E ${options.puppet}` };
    return { ok: false, reason: 'not-importable', code: String(code) };
  }
  if (needsPuppetToken(options.puppet) && !options.puppetToken) return { ok: false, reason: 'token-missing' };
  return { ok: true };
}

/** True for puppets that need WECHAT_PUPPET_TOKEN (padlocal, service). Pure. */
export function needsPuppetToken(puppet: string): boolean {
  return tokenPuppets.test(puppet);
}
