import { z } from 'zod';
import { budgetPeriodsSchema } from '../../src/config/budget-periods-schema.js';
import { createChannelConfigSection } from '../../src/config/channel-config-section.js';
import { optionalText } from '../../src/config/comma-list.js';
import { toolSelectionSchema } from '../../src/config/config-schema.js';

/** A key's name: letters, digits, `_` and `-` (it names the caller on cards, budgets and tool scopes). */
export const a2aKeyNamePattern = /^[A-Za-z0-9_-]{1,40}$/;

const a2aKeySchema = z.strictObject({
  name: z.string().regex(a2aKeyNamePattern, 'letters, digits, _ and - (at most 40)').describe('Names the calling agent: its sessions, budgets (user a2a:<name>) and tool scope; never the secret.'),
  secret: z.string().min(24, 'an A2A key has at least 24 characters').max(256).describe('The bearer key the calling agent sends (Authorization: Bearer <key>); from an environment variable.'),
  tools: toolSelectionSchema.partial().optional().describe("This caller's tool selection (profile, allow, alsoAllow, deny); default the channel's (minimal profile)."),
  callsPerMinute: z.coerce.number().int().positive().default(30).describe('Requests this key may make per minute; past it a request is refused with a retry hint.'),
  budget: budgetPeriodsSchema.optional().describe("This caller's own budget (daily, monthly; tokens or cost), counted as the job a2a-server:<name>; past it its tasks fail with the reason."),
});

const a2aSkillSchema = z.strictObject({
  id: z.string().regex(/^[A-Za-z0-9_.-]{1,64}$/),
  name: z.string().min(1).max(100),
  description: z.string().min(1).max(1000),
  tags: z.array(z.string().max(40)).default([]),
  examples: z.array(z.string().max(500)).default([]),
});

const a2aSchema = z.strictObject({
  keys: z.array(a2aKeySchema).default([]).describe('Bearer keys of the agents that may send tasks, each with its own tools, budget and rate limit; without any, A2A is off.'),
  name: z.string().min(1).max(100).default('echo-agent').describe('The name on the Agent Card.'),
  description: z.string().min(1).max(2000).default('A personal assistant agent: it runs tasks with its governed tools and asks its people before anything risky.').describe('The description on the Agent Card.'),
  skills: z
    .array(a2aSkillSchema)
    .default([{ id: 'assistant', name: 'General assistance', description: 'Answers questions and carries out tasks with the tools this key may use.', tags: ['assistant'], examples: [] }])
    .describe('The skills the Agent Card lists.'),
  publicUrl: optionalText.pipe(z.url().optional()).describe('The base URL other agents reach this gateway at (the card names <publicUrl>/a2a); default the Host the card was asked on.'),
  bodyLimitBytes: z.coerce.number().int().positive().default(256 * 1024).describe('Largest JSON-RPC request body.'),
  tools: toolSelectionSchema.partial().optional().describe('Tool selection for A2A tasks of keys that name none (default the minimal profile).'),
});

/** `channels.a2a-server`: the Agent2Agent server on the gateway. The channel's name is written here once. */
export const a2aConfig = createChannelConfigSection({
  name: 'a2a-server',
  schema: a2aSchema,
  environment: { publicUrl: 'ECHO_A2A_PUBLIC_URL' },
  secrets: ['keys'],
});

/** The `channels.a2a-server` section, validated. */
export type A2aConfig = z.output<typeof a2aSchema>;
/** One validated key. */
export type A2aKey = A2aConfig['keys'][number];
