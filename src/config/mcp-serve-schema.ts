// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the descriptions show the ${VAR} interpolation the config file uses.
import { z } from 'zod';
import { flexibleBoolean } from './comma-list.js';

/** One bearer key of echo-agent's own MCP server: who the caller acts for, and the chat its questions and cards go to. */
export const mcpServeKeySchema = z.strictObject({
  name: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,40}$/, 'letters, digits, _ and - (at most 40)')
    .describe('Names the key on cards, in the audit log and in rate limits (e.g. claude-code); never the secret itself.'),
  key: z.string().min(24, 'at least 24 characters').describe('The bearer secret (Authorization: Bearer <key>); write it as ${VAR} to keep it out of the file.'),
  user: z.string().min(1).describe("The person the key acts for: a user id in the chat's channel (budgets count against it; the requester when the channel has no approvers)."),
  chat: z.strictObject({ channel: z.string().min(1), chatId: z.string().min(1) }).describe('Where its questions, approval cards and notifications go.'),
  client: z.string().min(1).max(80).optional().describe('How cards name the caller (e.g. "Claude Code on build-01"); default the MCP client name it sends.'),
  callsPerMinute: z.coerce.number().int().positive().default(30).describe('Tool calls this key may make per minute; past it a call is refused with a retry hint.'),
});

/** `mcp.serve`: echo-agent as an MCP server on the gateway (Streamable HTTP) for coding agents and other MCP hosts. */
export const mcpServeSchema = z
  .strictObject({
    enabled: flexibleBoolean.default(false).describe('Serve ask_person, request_approval, notify and list_pending on the gateway.'),
    path: z.string().regex(/^\/[A-Za-z0-9/_-]*$/).default('/mcp').describe('The gateway path of the Streamable HTTP endpoint.'),
    waitSeconds: z.coerce.number().int().min(0).max(55).default(45).describe('Longest a call waits for the answer before it returns "pending" (the caller calls again with the same id); under the usual 60 s client timeout.'),
    allowedOrigins: z
      .array(z.url())
      .default([])
      .describe('Browser origins (scheme://host[:port]) that may call the endpoint besides loopback ones; a request with any other Origin header is refused 403 (DNS-rebinding protection). MCP hosts send no Origin.'),
    keys: z.array(mcpServeKeySchema).default([]).describe('Bearer keys, each mapped to a user and a chat; config file only (use ${VAR} for the secret).'),
  })
  .prefault({})
  .superRefine((serve, context) => {
    const names = new Set<string>();
    for (const [index, key] of serve.keys.entries()) {
      if (names.has(key.name)) context.addIssue({ code: 'custom', path: ['keys', index, 'name'], message: `the key name ${key.name} is used twice` });
      names.add(key.name);
    }
  });

/** The validated `mcp.serve` section. */
export type McpServeConfig = z.output<typeof mcpServeSchema>;
/** One validated key of `mcp.serve.keys`. */
export type McpServeKey = z.output<typeof mcpServeKeySchema>;
