import { describe, expect, it } from 'vitest';
import { hooksSchema } from '../../../src/config/hooks-config-schema.js';
import { findLink } from '../../../src/hooks/find-link.js';
import { hookSessionKey } from '../../../src/hooks/hook-session-key.js';
import { matchesWhen } from '../../../src/hooks/matches-when.js';
import { renderTemplate } from '../../../src/hooks/render-template.js';

const body = { action: 'opened', number: 7, draft: false, labels: ['a', 'b'], pull_request: { title: 'Add {{secret}}', user: { login: 'ada' }, html_url: 'https://github.com/o/r/pull/7' }, empty: null };

describe('renderTemplate', () => {
  it('inserts values as text, scalars and JSON, and reports missing paths once', () => {
    const rendered = renderTemplate('#{{number}} {{ pull_request.title }} by {{pull_request.user.login}} {{draft}} {{labels}} {{labels.1}} [{{nope.x}}{{nope.x}}] [{{empty}}]', body);
    expect(rendered.text).toBe('#7 Add {{secret}} by ada false ["a","b"] b [] []');
    expect(rendered.missing).toEqual(['nope.x']);
  });
  it('has no sections, partials, comments or prototype lookups: they stay text or render empty', () => {
    const rendered = renderTemplate('{{#labels}}x{{/labels}} {{>partial}} {{! note}} {{{number}}} {{__proto__}} {{constructor.name}} {{number.toString}}', body);
    expect(rendered.text).toBe('{{#labels}}x{{/labels}} {{>partial}} {{! note}} {7}   ');
  });
  it('caps the rendered text with a note', () => {
    const rendered = renderTemplate('{{pull_request.title}}', { pull_request: { title: 'x'.repeat(100) } }, { maxChars: 10 });
    expect(rendered.cut).toBe(true);
    expect(rendered.text.startsWith('xxxxxxxxxx\n[Cut here: 90 more characters')).toBe(true);
  });
});

describe('matchesWhen', () => {
  const headers = { 'x-github-event': 'pull_request' };
  const when = (header: Record<string, string | string[]>, bodyPaths: Record<string, string | string[]>) => ({ header, body: bodyPaths });
  it('matches header names case-insensitively and body paths against a value or a list', () => {
    expect(matchesWhen(when({ 'X-GitHub-Event': 'pull_request' }, { action: ['opened', 'reopened'], draft: 'false', 'pull_request.user.login': 'ada' }), { headers, body })).toEqual({ matched: true });
  });
  it('a different, missing or non-listed value does not match, and says which', () => {
    expect(matchesWhen(when({ 'x-github-event': 'push' }, {}), { headers, body })).toEqual({ matched: false, failed: 'header x-github-event' });
    expect(matchesWhen(when({}, { action: ['closed'] }), { headers, body })).toEqual({ matched: false, failed: 'body action' });
    expect(matchesWhen(when({}, { 'pull_request.merged': 'false' }), { headers, body })).toEqual({ matched: false, failed: 'body pull_request.merged' });
    expect(matchesWhen(when({ 'x-missing': 'a' }, {}), { headers, body }).matched).toBe(false);
  });
});

describe('hookSessionKey and findLink', () => {
  it('keeps every session under the hook: a payload cannot name a chat or another hook', () => {
    expect(hookSessionKey('prs', undefined, body)).toBe('hooks:prs');
    expect(hookSessionKey('prs', 'github:{{pull_request.user.login}}#{{number}}', body)).toBe('hooks:prs:github:ada#7');
    expect(hookSessionKey('prs', '{{pull_request.title}}', { pull_request: { title: 'telegram:1001\n../x y' } })).toBe('hooks:prs:telegram:1001_../x_y');
    expect(hookSessionKey('prs', '{{missing}}', body)).toBe('hooks:prs');
  });
  it('finds the http(s) link back, and nothing else', () => {
    expect(findLink(body)).toBe('https://github.com/o/r/pull/7');
    expect(findLink({ html_url: 'javascript:alert(1)' })).toBeUndefined();
    expect(findLink({ compare: 'https://github.com/o/r/compare/a...b' })).toBe('https://github.com/o/r/compare/a...b');
    expect(findLink({ id: 'evt_1' })).toBeUndefined();
  });
});

describe('the hooks config section', () => {
  const hook = { verify: 'github', secret: 's', prompt: 'p', deliverTo: { channel: 'chat', chatId: 1 } };
  it('accepts safe slugs only', () => {
    expect(hooksSchema.safeParse({ 'github-prs_2': hook }).success).toBe(true);
    for (const name of ['../etc', 'a/b', 'Upper', '', '-x', 'a b', 'x'.repeat(65)]) expect(hooksSchema.safeParse({ [name]: hook }).success).toBe(false);
  });
  it('refuses none without allowUnsigned, and a signed preset without a secret', () => {
    expect(hooksSchema.safeParse({ open: { ...hook, verify: 'none', secret: undefined } }).success).toBe(false);
    expect(hooksSchema.safeParse({ open: { ...hook, verify: 'none', secret: undefined, allowUnsigned: true } }).success).toBe(true);
    expect(hooksSchema.safeParse({ signed: { ...hook, secret: '' } }).success).toBe(false);
    expect(hooksSchema.parse({ h: hook }).h?.deliverTo.chatId).toBe('1');
  });
});
