import { renderTemplate } from './render-template.js';

const maxSessionChars = 200;

/**
 * The session a hook's turn runs in: `hooks:<name>`, or `hooks:<name>:<rendered session template>` (one conversation
 * per PR). Always under the hook's own prefix, so a payload value can never name a chat's session or another hook's;
 * characters outside a safe set become `_`. Pure.
 */
export function hookSessionKey(hookName: string, template: string | undefined, body: unknown): string {
  const base = `hooks:${hookName}`;
  if (template === undefined) return base;
  const rendered = renderTemplate(template, body, { maxChars: maxSessionChars }).text.slice(0, maxSessionChars);
  const safe = rendered.replace(/[^A-Za-z0-9_.:#/@-]/g, '_');
  return safe === '' ? base : `${base}:${safe}`;
}
