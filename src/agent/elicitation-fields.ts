import { z } from 'zod';
import { assertNever } from '../events/assert-never.js';

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

/** The reply words every question understands (also the button labels). */
export const elicitationWords = { decline: 'Decline', cancel: 'Cancel', skip: 'Skip', accept: 'Accept', acceptRest: 'Accept the rest as default', yes: 'Yes', no: 'No', useDefault: 'Use default' } as const;

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
  readonly message: string;
  readonly field: ElicitationField | undefined;
  readonly position: string;
  readonly retryReason?: string;
  readonly typedChoices: boolean;
  /** Every field from this one on may be left to its default or out: "Accept the rest as default" is offered. */
  readonly canAcceptRest: boolean;
}): { readonly text: string; readonly options: readonly string[] } {
  const { field } = input;
  const head = `The MCP server "${input.server}" asks: ${input.message}`;
  const again = input.retryReason === undefined ? [] : [`That answer was not accepted: ${input.retryReason}. Please answer again.`];
  const closing = [...(input.canAcceptRest && field !== undefined ? [elicitationWords.acceptRest] : []), elicitationWords.decline, elicitationWords.cancel];
  if (field === undefined) return { text: [head, ...again].join('\n\n'), options: [elicitationWords.accept, ...closing] };
  const describeDefault = field.defaultValue === undefined ? '' : ` (default: ${formatValue(field.defaultValue)})`;
  const lines = [`${input.position} ${field.label}${field.required ? '' : ' (optional)'}${describeDefault}`, ...(field.description === undefined ? [] : [field.description])];
  const skip = field.required ? [] : [elicitationWords.skip];
  const defaultChoice = field.defaultValue === undefined ? [] : [`${elicitationWords.useDefault}: ${formatValue(field.defaultValue)}`];
  switch (field.kind) {
    case 'boolean':
      return { text: [head, ...again, ...lines].join('\n\n'), options: [elicitationWords.yes, elicitationWords.no, ...skip, ...closing] };
    case 'enum':
      return { text: [head, ...again, ...lines].join('\n\n'), options: [...field.choices.map((choice) => choice.label), ...skip, ...closing] };
    case 'multi':
    case 'string':
    case 'number':
    case 'integer': {
      const typeHint = field.kind === 'multi' ? `Type your choices separated by commas: ${field.choices.map((choice) => choice.label).join(', ')}.` : `Type your answer${field.kind === 'string' ? '' : ` (a${field.kind === 'integer' ? ' whole' : ''} number)`}.`;
      const wordsHint = `Or reply ${[...defaultChoice, ...skip, ...closing].map((word) => `"${word}"`).join(', ')}.`;
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
export function readFieldReply(field: ElicitationField | undefined, text: string, shownOptions: readonly string[]): FieldReply {
  return readReply(field, text, shownOptions, true);
}

function readReply(field: ElicitationField | undefined, text: string, shownOptions: readonly string[], byNumber: boolean): FieldReply {
  const trimmed = text.trim();
  const word = trimmed.toLowerCase();
  if (word === elicitationWords.decline.toLowerCase()) return { kind: 'decline' };
  if (word === elicitationWords.cancel.toLowerCase()) return { kind: 'cancel' };
  if (word === elicitationWords.acceptRest.toLowerCase() && shownOptions.includes(elicitationWords.acceptRest)) return { kind: 'accept-rest' };
  // Choices are picked by their number too (numbered replies); a typed field's number is its value.
  const number = Number(trimmed);
  const isChoice = field === undefined || field.kind === 'enum' || field.kind === 'boolean';
  const picked = byNumber && isChoice && Number.isInteger(number) && number >= 1 ? shownOptions[number - 1] : undefined;
  if (picked !== undefined) return readReply(field, picked, shownOptions, false);
  if (field === undefined) {
    if (word === elicitationWords.accept.toLowerCase()) return { kind: 'value', value: undefined };
    return { kind: 'invalid', reason: `reply ${elicitationWords.accept}, ${elicitationWords.decline} or ${elicitationWords.cancel}` };
  }
  if (!field.required && word === elicitationWords.skip.toLowerCase()) return { kind: 'skip' };
  if (field.defaultValue !== undefined && word.startsWith(elicitationWords.useDefault.toLowerCase())) return { kind: 'value', value: field.defaultValue };
  const value = toValue(field, trimmed);
  if (value === undefined) return { kind: 'invalid', reason: describeExpected(field) };
  const checked = fieldSchema(field).safeParse(value);
  return checked.success ? { kind: 'value', value: checked.data } : { kind: 'invalid', reason: checked.error.issues[0]?.message ?? describeExpected(field) };
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
function fieldSchema(field: ElicitationField): z.ZodType {
  const schema = field.schema;
  const number = (key: string) => (typeof schema[key] === 'number' ? (schema[key] as number) : undefined);
  switch (field.kind) {
    case 'string': {
      let text = z.string();
      const min = number('minLength');
      const max = number('maxLength');
      if (min !== undefined) text = text.min(min, `at least ${min} characters`);
      if (max !== undefined) text = text.max(max, `at most ${max} characters`);
      switch (schema.format) {
        case 'email':
          return text.pipe(z.email('an email address'));
        case 'uri':
          return text.pipe(z.url('a link (https://...)'));
        case 'date':
          return text.pipe(z.iso.date('a date as YYYY-MM-DD'));
        case 'date-time':
          return text.pipe(z.iso.datetime({ offset: true, message: 'a date and time as YYYY-MM-DDTHH:MM:SSZ' }));
        default:
          return text;
      }
    }
    case 'number':
    case 'integer': {
      let value = field.kind === 'integer' ? z.number().int('a whole number') : z.number();
      const min = number('minimum');
      const max = number('maximum');
      if (min !== undefined) value = value.min(min, `at least ${min}`);
      if (max !== undefined) value = value.max(max, `at most ${max}`);
      return value;
    }
    case 'multi': {
      let list = z.array(z.string());
      const min = number('minItems');
      const max = number('maxItems');
      if (min !== undefined) list = list.min(min, `at least ${min} choices`);
      if (max !== undefined) list = list.max(max, `at most ${max} choices`);
      return list;
    }
    case 'boolean':
    case 'enum':
      return z.unknown();
    default:
      return assertNever(field.kind, 'elicitation field kind');
  }
}

function describeExpected(field: ElicitationField): string {
  switch (field.kind) {
    case 'boolean':
      return 'answer yes or no';
    case 'enum':
      return `choose one of ${field.choices.map((choice) => choice.label).join(', ')}`;
    case 'multi':
      return `choose from ${field.choices.map((choice) => choice.label).join(', ')}`;
    case 'number':
      return 'a number';
    case 'integer':
      return 'a whole number';
    case 'string':
      return 'some text';
    default:
      return assertNever(field.kind, 'elicitation field kind');
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
