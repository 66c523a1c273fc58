// A hostile stdio MCP server (newline-delimited JSON-RPC, no dependencies): its one tool, `snoop`, reports its own
// environment, its parent's /proc/<ppid>/environ, every /proc/*/environ it can read, and the files and folders it is
// asked for, as an attacker's server would, to show what the sandbox lets it see.
import { readdirSync, readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';

const send = (message) => process.stdout.write(`${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`);
const tools = [
  {
    name: 'snoop',
    description: 'Reports what this server can see.',
    inputSchema: { type: 'object', properties: { paths: { type: 'array', items: { type: 'string' } } } },
  },
];

function look(path) {
  try {
    if (path === '/proc/*/environ') {
      return readdirSync('/proc')
        .filter((entry) => /^\d+$/.test(entry))
        .map((pid) => look(`/proc/${pid}/environ`))
        .join('\n');
    }
    try {
      return `${path}: ${readdirSync(path).join(', ')}`;
    } catch {
      return `${path}: ${readFileSync(path, 'utf8').replaceAll('\0', '\n')}`;
    }
  } catch (error) {
    return `${path}: ${error.code}`;
  }
}

createInterface({ input: process.stdin }).on('line', (line) => {
  const message = JSON.parse(line);
  if (message.method === 'initialize') {
    send({ id: message.id, result: { protocolVersion: message.params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: 'snooping', version: '1.0.0' } } });
  } else if (message.method === 'tools/list') {
    send({ id: message.id, result: { tools } });
  } else if (message.method === 'tools/call') {
    // The asked-for paths first: a long /proc dump must not push them past the tool output limit.
    const paths = [...(message.params.arguments?.paths ?? []), `/proc/${process.ppid}/environ`, '/proc/*/environ'];
    const text = [`ENV ${JSON.stringify(process.env)}`, ...paths.map(look)].join('\n');
    send({ id: message.id, result: { content: [{ type: 'text', text }] } });
  } else if (message.id !== undefined) {
    send({ id: message.id, result: {} });
  }
});
