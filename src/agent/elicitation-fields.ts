import { z } from 'zod';
import { assertNever } from '../events/assert-never.js';
import { type ElicitationMessages, englishElicitationMessages } from '../i18n/elicitation-messages.js';

/** One field of an elicitation form, as the chat asks it. */
export type ElicitationField = {
  readonly name: string;
  /** What the person reads: the title, else the name. */
  readonly label: string;
  readonly description?: string;
  readonly kind: 'string' | 'number' | 'integer' | 'boolean' | 'enum' | 'multi';
  /** enum and multi: the values sent, with the labels shown. */
  readonly choices: readonly { readonly value: string; readonly label: string }[];
  readonly required: boolean;
  readonly defaultValue?: unknown;
  /** The field's own schema (limits, format), for validation. */
  readonly schema: Readonly<Record<string, unknown>>;
};

/** The English reply words, understood in every locale besides the chat's own (also `/cancel`'s word). */
export const elicitationWords = englishElicitationMessages.words;

/** A reply to one field: a value, a skip, the whole request declined or cancelled, or a reason to ask again. */
export type FieldReply =
  | { readonly kind: 'value'; readonly value: unknown }
  | { readonly kind: 'skip' }
  /** Accept now: the fields not answered yet take their defaults (offered only when none of them is required without one). */
  | { readonly kind: 'accept-rest' }
  | { readonly kind: 'decline' }
  | { readonly kind: 'cancel' }
  | { readonly kind: 'invalid'; readonly reason: string };

const maxFields = 20;

/** The fields of a requested schema, in the server's order (at most 20; a schema without fields is a confirmation). Pure. */
export function listFields(requestedSchema: Readonly<Record<string, unknown>>): readonly ElicitationField[] {
  const properties = isRecord(requestedSchema.properties) ? requestedSchema.properties : {};
  const required = new Set(Array.isArray(requestedSchema.required) ? requestedSchema.required.filter((name): name is string => typeof name === 'string') : []);
  return Object.entries(properties)
    .slice(0, maxFields)
    .filter((entry): entry is [string, Record<string, unknown>] => isRecord(entry[1]))
    .map(([name, schema]) => toField(name, schema, required.has(name)));
}

function toField(name: string, schema: Record<string, unknown>, required: boolean): ElicitationField {
  const base = {
    name,
    label: typeof schema.title === 'string' && schema.title !== '' ? schema.title : name,
    ...(typeof schema.description === 'string' ? { description: schema.description } : {}),
    required,
    ...(schema.default === undefined ? {} : { defaultValue: schema.default }),
    schema,
  };
  const single = choicesOf(schema);
  if (single.length > 0) return { ...base, kind: 'enum', choices: single };
  if (schema.type === 'array' && isRecord(schema.items)) return { ...base, kind: 'multi', choices: choicesOf(schema.items) };
  if (schema.type === 'boolean') return { ...base, kind: 'boolean', choices: [] };
  if (schema.type === 'number' || schema.type === 'integer') return { ...base, kind: schema.type, choices: [] };
  return { ...base, kind: 'string', choices: [] };
}

/** enum (with legacy enumNames), or oneOf/anyOf of { const, title }. */
function choicesOf(schema: Record<string, unknown>): { value: string; label: string }[] {
  if (Array.isArray(schema.enum)) {
    const names = Array.isArray(schema.enumNames) ? schema.enumNames : [];
    return schema.enum.map((value, index) => ({ value: String(value), label: typeof names[index] === 'string' ? names[index] : String(value) }));
  }
  const options = Array.isArray(schema.oneOf) ? schema.oneOf : Array.isArray(schema.anyOf) ? schema.anyOf : [];
  return options.filter(isRecord).map((option) => ({ value: String(option.const), label: typeof option.title === 'string' ? option.title : String(option.const) }));
}

/** The text and the choices of the question for one field; `typedChoices` false leaves typed fields without buttons. Pure. */
export function askField(input: {
  readonly server: string;
  /** An MCP server (default) or another agent. */
  readonly asker?: 'server' | 'agent';
  readonly message: string;
  readonly field: ElicitationField | undefined;
  readonly position: string;
  readonly retryReason?: string;
  readonly typedChoices: boolean;
  /** Every field from this one on may be left to its default or out: "Accept the rest as default" is offered. */
  readonly canAcceptRest: boolean;
  /** The chat's language. */
  readonly strings: ElicitationMessages;
}): { readonly text: string; readonly options: readonly string[] } {
  const { field, strings } = input;
  const { words } = strings;
  const head = input.asker === 'agent' ? strings.agentAsks(input.server, input.message) : strings.asks(input.server, input.message);
  const again = input.retryReason === undefined ? [] : [strings.notAccepted(input.retryReason)];
  const closing = [...(input.canAcceptRest && field !== undefined ? [words.acceptRest] : []), words.decline, words.cancel];
  if (field === undefined) return { text: [head, ...again].join('\n\n'), options: [words.accept, ...closing] };
  const describeDefault = field.defaultValue === undefined ? '' : strings.defaultIs(formatValue(field.defaultValue));
  const lines = [`${input.position} ${field.label}${field.required ? '' : strings.optional}${describeDefault}`, ...(field.description === undefined ? [] : [field.description])];
  const skip = field.required ? [] : [words.skip];
  const defaultChoice = field.defaultValue === undefined ? [] : [`${words.useDefault}: ${formatValue(field.defaultValue)}`];
  switch (field.kind) {
    case 'boolean':
      return { text: [head, ...again, ...lines].join('\n\n'), options: [words.yes, words.no, ...skip, ...closing] };
    case 'enum':
      return { text: [head, ...again, ...lines].join('\n\n'), options: [...field.choices.map((choice) => choice.label), ...skip, ...closing] };
    case 'multi':
    case 'string':
    case 'number':
    case 'integer': {
      const typeHint = field.kind === 'multi' ? strings.typeChoices(field.choices.map((choice) => choice.label).join(', ')) : field.kind === 'string' ? strings.typeText : field.kind === 'integer' ? strings.typeInteger : strings.typeNumber;
      const wordsHint = strings.orReply([...defaultChoice, ...skip, ...closing].map((word) => `"${word}"`).join(', '));
      return { text: [head, ...again, ...lines, `${typeHint} ${wordsHint}`].join('\n\n'), options: input.typedChoices ? [...defaultChoice, ...skip, ...closing] : [] };
    }
    default:
      return assertNever(field.kind, 'elicitation field kind');
  }
}

/**
 * Reads a reply to one field: a button's label or typed text. Choices (enum, boolean) also take their number; a
 * typed field takes the text as its value unless it is one of the reply words. The value is checked against the
 * field's schema. Pure.
 */
export function readFieldReply(
  field: ElicitationField | undefined,
  text: string,
  shownOptions: readonly string[],
  strings: ElicitationMessages = englishElicitationMessages,
  /** "Accept the rest as default" is allowed (typed too, where typed fields show no options); default: when it is shown. */
  acceptRest: boolean = shownOptions.includes(strings.words.acceptRest),
): FieldReply {
  return readReply({ field, shownOptions, strings, acceptRest }, text, true);
}

type ReplyContext = { readonly field: ElicitationField | undefined; readonly shownOptions: readonly string[]; readonly strings: ElicitationMessages; readonly acceptRest: boolean };

function readReply(context: ReplyContext, text: string, byNumber: boolean): FieldReply {
  const { field, shownOptions, strings, acceptRest } = context;
  const trimmed = text.trim();
  // A reply word in the chat's language or in English.
  const is = (key: keyof ElicitationMessages['words']) => [strings.words[key], elicitationWords[key]].some((word) => word.toLowerCase() === trimmed.toLowerCase());
  if (is('decline')) return { kind: 'decline' };
  if (is('cancel')) return { kind: 'cancel' };
  if (is('acceptRest') && acceptRest && field !== undefined) return { kind: 'accept-rest' };
  // Choices are picked by their number too (numbered replies); a typed field's number is its value.
  const number = Number(trimmed);
  const isChoice = field === undefined || field.kind === 'enum' || field.kind === 'boolean';
  const picked = byNumber && isChoice && Number.isInteger(number) && number >= 1 ? shownOptions[number - 1] : undefined;
  if (picked !== undefined) return readReply(context, picked, false);
  if (field === undefined) return is('accept') ? { kind: 'value', value: undefined } : { kind: 'invalid', reason: strings.reasons.replyAcceptDeclineCancel };
  if (!field.required && is('skip')) return { kind: 'skip' };
  const useDefault = [strings.words.useDefault, elicitationWords.useDefault].some((word) => trimmed.toLowerCase().startsWith(word.toLowerCase()));
  if (field.defaultValue !== undefined && useDefault) return { kind: 'value', value: field.defaultValue };
  if (field.kind === 'boolean' && is('yes')) return { kind: 'value', value: true };
  if (field.kind === 'boolean' && is('no')) return { kind: 'value', value: false };
  const value = toValue(field, trimmed);
  if (value === undefined) return { kind: 'invalid', reason: describeExpected(field, strings) };
  const checked = fieldSchema(field, strings).safeParse(value);
  return checked.success ? { kind: 'value', value: checked.data } : { kind: 'invalid', reason: checked.error.issues[0]?.message ?? describeExpected(field, strings) };
}

/** Whether every field from `index` on may be left to its default or out (no required field without a default). Pure. */
export function canAcceptRest(fields: readonly ElicitationField[], index: number): boolean {
  return fields.slice(index).every((field) => !field.required || field.defaultValue !== undefined);
}

/** The accepted content: the answers given, and the defaults of fields left out (SEP-1034). Pure. */
export function withDefaults(fields: readonly ElicitationField[], content: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const complete: Record<string, unknown> = {};
  for (const field of fields) {
    if (Object.hasOwn(content, field.name)) complete[field.name] = content[field.name];
    else if (field.defaultValue !== undefined) complete[field.name] = field.defaultValue;
  }
  return complete;
}

/** An answer as one line, for the chat and the model. Pure. */
export function formatValue(value: unknown): string {
  if (Array.isArray(value)) return value.map(String).join(', ');
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** The typed or chosen text as the field's type, or undefined when it cannot be one. */
function toValue(field: ElicitationField, text: string): unknown {
  const lower = text.toLowerCase();
  switch (field.kind) {
    case 'boolean':
      if (['yes', 'y', 'true', 'ok'].includes(lower)) return true;
      if (['no', 'n', 'false'].includes(lower)) return false;
      return undefined;
    case 'enum':
      return field.choices.find((choice) => choice.label.toLowerCase() === lower || choice.value.toLowerCase() === lower)?.value;
    case 'multi': {
      const parts = text.split(',').map((part) => part.trim().toLowerCase()).filter((part) => part !== '');
      const values = parts.map((part) => field.choices.find((choice) => choice.label.toLowerCase() === part || choice.value.toLowerCase() === part)?.value);
      return values.every((value) => value !== undefined) ? values : undefined;
    }
    case 'number':
    case 'integer': {
      const number = Number(text.replace(',', '.'));
      return text === '' || !Number.isFinite(number) ? undefined : number;
    }
    case 'string':
      return text;
    default:
      return assertNever(field.kind, 'elicitation field kind');
  }
}

/** A zod schema for the field with the limits the spec allows (lengths, formats, ranges, item counts). */
function fieldSchema(field: ElicitationField, strings: ElicitationMessages): z.ZodType {
  const schema = field.schema;
  const { reasons } = strings;
  const number = (key: string) => (typeof schema[key] === 'number' ? (schema[key] as number) : undefined);
  switch (field.kind) {
    case 'string': {
      let text = z.string();
      const min = number('minLength');
      const max = number('maxLength');
      if (min !== undefined) text = text.min(min, reasons.minLength(min));
      if (max !== undefined) text = text.max(max, reasons.maxLength(max));
      switch (schema.format) {
        case 'email':
          return text.pipe(z.email(reasons.email));
        case 'uri':
          return text.pipe(z.url(reasons.uri));
        case 'date':
          return text.pipe(z.iso.date(reasons.date));
        case 'date-time':
          return text.pipe(z.iso.datetime({ offset: true, message: reasons.dateTime }));
        default:
          return text;
      }
    }
    case 'number':
    case 'integer': {
      let value = field.kind === 'integer' ? z.number().int(reasons.integer) : z.number();
      const min = number('minimum');
      const max = number('maximum');
      if (min !== undefined) value = value.min(min, reasons.minimum(min));
      if (max !== undefined) value = value.max(max, reasons.maximum(max));
      return value;
    }
    case 'multi': {
      let list = z.array(z.string());
      const min = number('minItems');
      const max = number('maxItems');
      if (min !== undefined) list = list.min(min, reasons.minItems(min));
      if (max !== undefined) list = list.max(max, reasons.maxItems(max));
      return list;
    }
    case 'boolean':
    case 'enum':
      return z.unknown();
    default:
      return assertNever(field.kind, 'elicitation field kind');
  }
}

function describeExpected(field: ElicitationField, strings: ElicitationMessages): string {
  const { reasons } = strings;
  const labels = field.choices.map((choice) => choice.label).join(', ');
  switch (field.kind) {
    case 'boolean':
      return reasons.yesOrNo;
    case 'enum':
      return reasons.chooseOne(labels);
    case 'multi':
      return reasons.chooseFrom(labels);
    case 'number':
      return reasons.number;
    case 'integer':
      return reasons.integer;
    case 'string':
      return reasons.text;
    default:
      return assertNever(field.kind, 'elicitation field kind');
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
