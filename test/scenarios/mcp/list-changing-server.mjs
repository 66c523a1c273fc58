// A minimal MCP server over stdio (newline-delimited JSON-RPC), for the one behaviour the reference servers never
// show: its tool list grows when `add_tool` is called, and it says so with notifications/tools/list_changed.
import { createInterface } from 'node:readline';

const tools = [{ name: 'add_tool', description: 'Adds the tool "extra".', inputSchema: { type: 'object', properties: {} } }];
const send = (message) => process.stdout.write(`${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`);

createInterface({ input: process.stdin }).on('line', (line) => {
  const message = JSON.parse(line);
  if (message.method === 'initialize') {
    send({ id: message.id, result: { protocolVersion: message.params.protocolVersion, capabilities: { tools: { listChanged: true } }, serverInfo: { name: 'list-changing', version: '1.0.0' } } });
  } else if (message.method === 'tools/list') {
    send({ id: message.id, result: { tools } });
  } else if (message.method === 'tools/call' && message.params.name === 'add_tool') {
    if (!tools.some((tool) => tool.name === 'extra')) tools.push({ name: 'extra', description: 'Says it is new.', inputSchema: { type: 'object', properties: {} } });
    send({ id: message.id, result: { content: [{ type: 'text', text: 'added' }] } });
    send({ method: 'notifications/tools/list_changed' });
  } else if (message.method === 'tools/call') {
    send({ id: message.id, result: { content: [{ type: 'text', text: `${message.params.name} is new` }] } });
  } else if (message.id !== undefined) {
    send({ id: message.id, result: {} });
  }
});
