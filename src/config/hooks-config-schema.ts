import { z } from 'zod';
import { budgetPeriodsSchema } from './budget-periods-schema.js';
import { flexibleBoolean, optionalText } from './comma-list.js';
import { toolSelectionSchema } from './tool-selection-schema.js';

/** A hook's name: a safe slug, the last segment of its route `POST /hooks/<name>`. */
export const hookNamePattern = /^[a-z0-9][a-z0-9_-]{0,63}$/;

const whenValue = z.union([z.string(), z.number(), z.boolean()]).transform(String);

/** `when`: header equality (names case-insensitive) and dot-path body values equal to a value or one of a list; no code. */
const whenSchema = z.strictObject({
  header: z.record(z.string().min(1), z.union([whenValue, z.array(whenValue).min(1)])).default({}).describe('Header name → value or list of values (names case-insensitive).'),
  body: z.record(z.string().min(1), z.union([whenValue, z.array(whenValue).min(1)])).default({}).describe('Dot path into the JSON body (pull_request.draft) → value or list of values.'),
});

/** The generic HMAC preset: which header, algorithm, encoding and prefix, and what is signed. */
const hmacSchema = z.strictObject({
  header: z.string().min(1).default('x-signature').describe('Header carrying the signature.'),
  algorithm: z.enum(['sha256', 'sha1', 'sha512']).default('sha256'),
  encoding: z.enum(['hex', 'base64']).default('hex'),
  prefix: z.string().default('').describe('Text before the signature in the header, e.g. sha256='),
  timestampHeader: optionalText.describe('Header with a Unix timestamp (seconds); when set it is signed as <timestamp>.<body>, checked against toleranceSeconds, and makes the delivery id.'),
  toleranceSeconds: z.coerce.number().int().positive().default(300).describe('Replay window when timestampHeader is set.'),
});

const deliverToSchema = z.strictObject({
  channel: z.string().min(1).describe('The channel the answer goes to (a channel name, as under channels:).'),
  chatId: z.coerce.string().min(1),
  threadId: z.coerce.string().optional(),
});

/** One named hook: how its sender is verified, when it runs, what the model is asked, and where the answer goes. */
export const hookSchema = z
  .strictObject({
    verify: z.enum(['github', 'stripe', 'standard-webhooks', 'hmac', 'bearer', 'none']).describe('How requests are verified, as the sender documents it; none needs allowUnsigned: true.'),
    secret: optionalText.describe("The shared secret (GitHub's secret, Stripe's whsec_..., a Standard Webhooks whsec_..., the HMAC key, the bearer token)."),
    allowUnsigned: flexibleBoolean.default(false).describe('Required for verify: none; anyone who can reach the gateway can then run this hook.'),
    hmac: hmacSchema.prefault({}).describe('Options of verify: hmac.'),
    when: whenSchema.prefault({}).describe('Runs only when every listed header and body value matches; otherwise 204.'),
    prompt: z.string().min(1).describe('Mustache-style template over the JSON body ({{a.b.c}}); values are inserted as text.'),
    deliverTo: deliverToSchema.describe('Where the answer goes: a channel and chat (and thread).'),
    session: z.string().min(1).optional().describe('Template of the session (one conversation per PR), kept under hooks:<name>:...; default hooks:<name>.'),
    tools: toolSelectionSchema.partial().prefault({}).describe("The hook's own tool selection; default profile minimal."),
    budget: budgetPeriodsSchema.optional().describe("The hook's own budget (billed to hook:<name>)."),
  })
  .superRefine((hook, context) => {
    if (hook.verify === 'none' && !hook.allowUnsigned) context.addIssue({ code: 'custom', path: ['verify'], message: 'verify: none needs allowUnsigned: true' });
    if (hook.verify !== 'none' && (hook.secret === undefined || hook.secret === '')) context.addIssue({ code: 'custom', path: ['secret'], message: `verify: ${hook.verify} needs a secret` });
  });

/** The `hooks:` section: hook name → hook. */
export const hooksSchema = z.record(z.string().regex(hookNamePattern, 'lower-case letters, digits, _ and - (a safe slug)'), hookSchema).default({});

/** One configured hook. */
export type HookConfig = z.output<typeof hookSchema>;
