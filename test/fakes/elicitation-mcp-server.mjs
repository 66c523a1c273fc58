// A stdio MCP server built with @modelcontextprotocol/server 2.4.0 whose tools ask the person for input
// (elicitation/create) during the call. Every answer the server receives, and every call that completes, is appended
// as one JSON line to the file named by ELICITATION_LOG, so a test can count what reached the server, across restarts.
import { appendFileSync } from 'node:fs';
import { McpServer } from '@modelcontextprotocol/server';
import { StdioServerTransport } from '@modelcontextprotocol/server/stdio';
import { z } from 'zod';

const logFile = process.env.ELICITATION_LOG;
const record = (entry) => {
  if (logFile) appendFileSync(logFile, `${JSON.stringify({ pid: process.pid, ...entry })}\n`);
};
// A person may take long: the server waits up to ten minutes for the answer.
const waitForPerson = { timeout: 600_000 };

const coffeeSchema = {
  type: 'object',
  properties: {
    size: { type: 'string', title: 'Size', enum: ['small', 'large'], default: 'small' },
    sugar: { type: 'boolean', title: 'Sugar' },
    cups: { type: 'integer', title: 'Cups', minimum: 1, maximum: 4 },
    name: { type: 'string', title: 'Name on the cup', minLength: 2 },
  },
  required: ['size', 'sugar', 'cups'],
};

const server = new McpServer({ name: 'elicitation-test', version: '1.0.0' });

server.registerTool(
  'order_coffee',
  { description: 'Orders a coffee; asks the person how they want it.', inputSchema: z.object({ shop: z.string().optional() }) },
  async (_args, ctx) => {
    record({ event: 'started', tool: 'order_coffee' });
    const answer = await ctx.mcpReq.elicitInput({ message: 'How would you like your coffee?', requestedSchema: coffeeSchema }, waitForPerson);
    record({ event: 'completed', tool: 'order_coffee', action: answer.action, content: answer.content });
    const text = answer.action === 'accept' ? `ordered: ${JSON.stringify(answer.content)}` : `no order (${answer.action})`;
    return { content: [{ type: 'text', text }] };
  },
);

server.registerTool(
  'confirm_transfer',
  { description: 'Transfers money after the person confirms.', inputSchema: z.object({ amount: z.number() }) },
  async ({ amount }, ctx) => {
    record({ event: 'started', tool: 'confirm_transfer' });
    const answer = await ctx.mcpReq.elicitInput(
      { message: `Transfer ${amount} EUR?`, requestedSchema: { type: 'object', properties: { confirm: { type: 'boolean', title: 'Confirm' } }, required: ['confirm'] } },
      waitForPerson,
    );
    record({ event: 'completed', tool: 'confirm_transfer', action: answer.action, content: answer.content });
    const done = answer.action === 'accept' && answer.content?.confirm === true;
    return { content: [{ type: 'text', text: done ? `transferred ${amount} EUR` : `not transferred (${answer.action})` }] };
  },
);

server.registerTool(
  'link_account',
  { description: 'Links an account: the person opens a link.', inputSchema: z.object({}) },
  async (_args, ctx) => {
    const answer = await ctx.mcpReq.elicitInput({ mode: 'url', message: 'Sign in to link your account.', url: 'https://accounts.example.com/link?state=abc', elicitationId: 'link-1' }, waitForPerson);
    record({ event: 'completed', tool: 'link_account', action: answer.action });
    return { content: [{ type: 'text', text: `link ${answer.action}` }] };
  },
);

server.registerTool(
  'summarise',
  { description: 'Summarises a text with the client\'s model (sampling).', inputSchema: z.object({ text: z.string() }) },
  async ({ text }, ctx) => {
    record({ event: 'started', tool: 'summarise', content: { clientCapabilities: server.server.getClientCapabilities() } });
    try {
      const sampled = await ctx.mcpReq.requestSampling({ messages: [{ role: 'user', content: { type: 'text', text: `Summarise: ${text}` } }], maxTokens: 100 });
      record({ event: 'completed', tool: 'summarise', action: 'sampled', content: { text: sampled.content.text, model: sampled.model } });
      return { content: [{ type: 'text', text: `summary: ${sampled.content.text}` }] };
    } catch (error) {
      record({ event: 'completed', tool: 'summarise', action: 'refused', content: { error: String(error.message) } });
      return { content: [{ type: 'text', text: `no summary: ${error.message}` }] };
    }
  },
);

await server.connect(new StdioServerTransport());
