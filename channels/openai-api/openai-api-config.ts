import { z } from 'zod';
import { createChannelConfigSection } from '../../src/config/channel-config-section.js';
import { commaList } from '../../src/config/comma-list.js';
import { toolSelectionSchema } from '../../src/config/config-schema.js';

/** A user id a key stands for: letters, digits, `_ . @ -` (no `/`: it starts the conversation's chat id). */
export const apiUserIdPattern = /^[A-Za-z0-9_.@-]{1,64}$/;

const apiKeyEntry = z.strictObject({
  secret: z.string().min(16, 'an API key has at least 16 characters').max(256).describe('The bearer key a client sends.'),
  user: z.string().regex(apiUserIdPattern, 'letters, digits, _ . @ and - only').describe('The user id the key stands for (sessions, budgets, approvals).'),
});

/** `key:user,key:user` (how the environment variable carries them) or a YAML list of `{ secret, user }`. */
const apiKeyList = z.preprocess((value) => {
  if (value === undefined || value === null || value === '') return [];
  if (typeof value !== 'string') return value;
  return value
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item.length > 0)
    .map((item) => {
      const colon = item.lastIndexOf(':');
      return colon < 0 ? { secret: item, user: '' } : { secret: item.slice(0, colon), user: item.slice(colon + 1) };
    });
}, z.array(apiKeyEntry));

const openaiApiSchema = z.strictObject({
  keys: apiKeyList.default([]).describe('Bearer keys and the user id each stands for (`ECHO_API_KEYS=key1:alice,key2:bob`); without any, the endpoint is off.'),
  approvers: commaList.default([]).describe('User ids (of the keys) that may decide approval cards raised here; empty: the requester alone.'),
  modelId: z
    .string()
    .regex(/^[A-Za-z0-9_.:-]{1,64}$/)
    .optional()
    .describe('The model id GET /v1/models lists (clients send it back; it is not checked); default echo-agent.'),
  waitTimeoutMs: z.coerce.number().int().positive().default(300_000).describe('Longest a request waits for its answer; past it the answer is kept for the next request.'),
  bodyLimitBytes: z.coerce.number().int().positive().default(4 * 1024 * 1024).describe('Largest request body (clients send the whole history each time).'),
  tools: toolSelectionSchema.partial().optional().describe('Tool selection for turns from OpenAI clients.'),
});

/** `channels.openai-api`: the schema, its environment variables, its secrets. The channel's name is written here once. */
export const openaiApiConfig = createChannelConfigSection({
  name: 'openai-api',
  schema: openaiApiSchema,
  environment: { keys: 'ECHO_API_KEYS', approvers: 'ECHO_API_APPROVERS', modelId: 'ECHO_API_MODEL_ID' },
  secrets: ['keys'],
});

/** The `channels.openai-api` section, validated. */
export type OpenaiApiConfig = z.output<typeof openaiApiSchema>;
