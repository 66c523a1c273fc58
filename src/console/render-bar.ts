import { escapeHtml } from './escape-html.js';

/**
 * One horizontal bar as inline SVG (the CSP forbids inline styles, SVG attributes are not styles): the value against
 * a scale, with the budget's limit and soft limit drawn as marks when there is one. Pure.
 */
export function renderBar(input: { readonly label: string; readonly value: number; readonly scale: number; readonly limit?: number; readonly softLimit?: number; readonly text: string }): string {
  const scale = Math.max(input.scale, input.limit ?? 0, 1);
  const share = (value: number) => Math.min(100, (value / scale) * 100).toFixed(2);
  const over = input.limit !== undefined && input.value >= input.limit;
  const marks = [
    input.softLimit === undefined || input.limit === undefined ? '' : `<rect class="soft" x="${share(input.limit * input.softLimit)}" y="0" width="0.8" height="10"/>`,
    input.limit === undefined ? '' : `<rect class="limit" x="${Math.min(99.2, Number(share(input.limit)))}" y="0" width="0.8" height="10"/>`,
  ].join('');
  return `<div class="bar"><span>${escapeHtml(input.label)}</span><svg viewBox="0 0 100 10" preserveAspectRatio="none" role="img" aria-label="${escapeHtml(`${input.label}: ${input.text}`)}"><rect class="track" x="0" y="0" width="100" height="10"/><rect class="${over ? 'over' : 'fill'}" x="0" y="0" width="${share(input.value)}" height="10"/>${marks}</svg><span>${escapeHtml(input.text)}</span></div>`;
}
