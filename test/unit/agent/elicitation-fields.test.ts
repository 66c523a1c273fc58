import { describe, expect, it } from 'vitest';
import { askField, canAcceptRest, listFields, readFieldReply, withDefaults } from '../../../src/agent/elicitation-fields.js';
import { chineseElicitationMessages, englishElicitationMessages } from '../../../src/i18n/elicitation-messages.js';

// The schema of the official conformance scenario elicitation-sep1034-client-defaults: every field optional, with a default.
const defaultsSchema = {
  type: 'object',
  properties: {
    name: { type: 'string', description: 'User name', default: 'John Doe' },
    age: { type: 'integer', description: 'User age', default: 30 },
    score: { type: 'number', description: 'User score', default: 95.5 },
    status: { type: 'string', description: 'User status', enum: ['active', 'inactive', 'pending'], default: 'active' },
    verified: { type: 'boolean', description: 'Verification status', default: true },
  },
  required: [],
};

const formSchema = {
  type: 'object',
  properties: {
    email: { type: 'string', title: 'Email', format: 'email' },
    cups: { type: 'integer', title: 'Cups', minimum: 1, maximum: 4 },
    plan: { type: 'string', title: 'Plan', oneOf: [{ const: 'b', title: 'Basic' }, { const: 'p', title: 'Pro' }] },
    extras: { type: 'array', title: 'Extras', minItems: 1, items: { type: 'string', enum: ['milk', 'honey', 'ice'] } },
    legacy: { type: 'string', enum: ['x', 'y'], enumNames: ['Ex', 'Why'] },
  },
  required: ['email', 'cups', 'plan', 'extras'],
};

describe('elicitation fields (SEP-1034 forms asked in a chat)', () => {
  it('lists the fields in order with their kind, labels, choices and defaults', () => {
    const fields = listFields(formSchema);
    expect(fields.map((field) => [field.name, field.kind, field.required])).toEqual([
      ['email', 'string', true],
      ['cups', 'integer', true],
      ['plan', 'enum', true],
      ['extras', 'multi', true],
      ['legacy', 'enum', false],
    ]);
    expect(fields[2]?.choices).toEqual([{ value: 'b', label: 'Basic' }, { value: 'p', label: 'Pro' }]);
    expect(fields[4]?.choices).toEqual([{ value: 'x', label: 'Ex' }, { value: 'y', label: 'Why' }]);
  });

  it('checks typed values against the field schema and explains a refusal', () => {
    const [email, cups, plan, extras] = listFields(formSchema);
    expect(readFieldReply(email, 'ada@example.com', [])).toEqual({ kind: 'value', value: 'ada@example.com' });
    expect(readFieldReply(email, 'not an address', [])).toEqual({ kind: 'invalid', reason: 'an email address' });
    expect(readFieldReply(cups, '2', [])).toEqual({ kind: 'value', value: 2 });
    expect(readFieldReply(cups, '9', [])).toEqual({ kind: 'invalid', reason: 'at most 4' });
    expect(readFieldReply(cups, '1.5', [])).toEqual({ kind: 'invalid', reason: 'a whole number' });
    expect(readFieldReply(cups, 'two', [])).toEqual({ kind: 'invalid', reason: 'a whole number' });
    // A choice is read by its label, its value or (numbered replies) its position among the options shown.
    const shown = askField({ server: 's', message: 'm', field: plan, position: '(3/5)', typedChoices: true, canAcceptRest: false, strings: englishElicitationMessages }).options;
    expect(shown).toEqual(['Basic', 'Pro', 'Decline', 'Cancel']);
    expect(readFieldReply(plan, 'Pro', shown)).toEqual({ kind: 'value', value: 'p' });
    expect(readFieldReply(plan, 'b', shown)).toEqual({ kind: 'value', value: 'b' });
    expect(readFieldReply(plan, '2', shown)).toEqual({ kind: 'value', value: 'p' });
    expect(readFieldReply(plan, '3', shown)).toEqual({ kind: 'decline' });
    expect(readFieldReply(plan, 'Gold', shown)).toEqual({ kind: 'invalid', reason: 'choose one of Basic, Pro' });
    expect(readFieldReply(extras, 'milk, Honey', [])).toEqual({ kind: 'value', value: ['milk', 'honey'] });
    expect(readFieldReply(extras, 'milk, sugar', [])).toMatchObject({ kind: 'invalid' });
  });

  it('takes decline and cancel at any field, and skip only for optional ones', () => {
    const fields = listFields(formSchema);
    expect(readFieldReply(fields[0], 'decline', [])).toEqual({ kind: 'decline' });
    expect(readFieldReply(fields[1], 'CANCEL', [])).toEqual({ kind: 'cancel' });
    expect(readFieldReply(fields[4], 'skip', [])).toEqual({ kind: 'skip' });
    // A required text field takes "skip" as its value: only optional fields can be skipped.
    const [note] = listFields({ type: 'object', properties: { note: { type: 'string' } }, required: ['note'] });
    expect(readFieldReply(note, 'skip', [])).toEqual({ kind: 'value', value: 'skip' });
  });

  it('applies the defaults of fields left out, and offers to accept them when nothing required is left', () => {
    const fields = listFields(defaultsSchema);
    expect(canAcceptRest(fields, 0)).toBe(true);
    expect(canAcceptRest(listFields(formSchema), 4)).toBe(true);
    expect(canAcceptRest(listFields(formSchema), 3)).toBe(false);
    const question = askField({ server: 'conformance', message: 'please accept with defaults', field: fields[0], position: '(1/5)', typedChoices: true, canAcceptRest: true, strings: englishElicitationMessages });
    expect(question.text).toContain('The MCP server "conformance" asks: please accept with defaults');
    expect(question.options).toEqual(['Use default: John Doe', 'Skip', 'Accept the rest as default', 'Decline', 'Cancel']);
    expect(readFieldReply(fields[0], 'Accept the rest as default', question.options)).toEqual({ kind: 'accept-rest' });
    // Typed on a channel with numbered replies, where a typed field shows no options.
    expect(readFieldReply(fields[0], 'accept the rest as default', [], englishElicitationMessages, true)).toEqual({ kind: 'accept-rest' });
    expect(readFieldReply(listFields(formSchema)[0], 'Accept the rest as default', [], englishElicitationMessages, false)).toMatchObject({ kind: 'invalid' });
    expect(withDefaults(fields, { name: 'Ada' })).toEqual({ name: 'Ada', age: 30, score: 95.5, status: 'active', verified: true });
  });

  it('asks a form without fields as a confirmation', () => {
    const question = askField({ server: 's', message: 'Proceed?', field: undefined, position: '(1/0)', typedChoices: true, canAcceptRest: true, strings: englishElicitationMessages });
    expect(question.options).toEqual(['Accept', 'Decline', 'Cancel']);
    expect(readFieldReply(undefined, '1', question.options)).toEqual({ kind: 'value', value: undefined });
    expect(readFieldReply(undefined, 'cancel', question.options)).toEqual({ kind: 'cancel' });
    expect(readFieldReply(undefined, 'maybe', question.options)).toMatchObject({ kind: 'invalid' });
  });

  it('speaks the chat\'s language and still understands the English reply words', () => {
    const [confirm] = listFields({ type: 'object', properties: { confirm: { type: 'boolean', title: '确认' } }, required: ['confirm'] });
    const question = askField({ server: '银行', message: '转账 20 元？', field: confirm, position: '(1/1)', typedChoices: true, canAcceptRest: false, strings: chineseElicitationMessages });
    expect(question.text).toContain('MCP 服务「银行」询问：转账 20 元？');
    expect(question.options).toEqual(['是', '否', '拒绝', '取消']);
    expect(readFieldReply(confirm, '是', question.options, chineseElicitationMessages)).toEqual({ kind: 'value', value: true });
    expect(readFieldReply(confirm, '2', question.options, chineseElicitationMessages)).toEqual({ kind: 'value', value: false });
    expect(readFieldReply(confirm, '拒绝', question.options, chineseElicitationMessages)).toEqual({ kind: 'decline' });
    expect(readFieldReply(confirm, 'cancel', question.options, chineseElicitationMessages)).toEqual({ kind: 'cancel' });
    const [cups] = listFields({ type: 'object', properties: { cups: { type: 'integer', maximum: 4 } }, required: ['cups'] });
    expect(readFieldReply(cups, '9', [], chineseElicitationMessages)).toEqual({ kind: 'invalid', reason: '不能大于 4' });
  });
});
