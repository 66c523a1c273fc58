// The client under test for the MCP conformance suite's client scenarios. The suite starts a server for a
// scenario and runs this with its URL as the last argument (MCP_CONFORMANCE_SCENARIO names the scenario,
// MCP_CONFORMANCE_CONTEXT carries credentials some scenarios hand the client). This runs echo-agent itself:
// `node dist/src/app/main.js chat` (the terminal channel), with the scenario's server configured under
// mcp.servers.conformance, and a scripted model that asks for every tool the server offers, once. So the suite sees
// echo-agent's real MCP path: the config, createMcpToolSource, the connection, the registry's execute and the agent
// loop; nothing here speaks MCP itself. For an `auth/` scenario with the authorization-code grant, this also plays the
// person: it reads the authorization link echo-agent sends to the chat (the terminal), opens it like a browser (the
// suite's authorization server approves at once and redirects), and follows the redirect to echo-agent's gateway
// (/mcp/oauth/callback), which finishes the flow; only then does it type the line that asks for the tools. When the
// server elicits (elicitation/create, form mode), echo-agent asks the question in the chat (the terminal) and this
// answers it like the person would, typing "Accept the rest as default" at the first question so every field takes
// its default (SEP-1034). Standard input stays open until echo-agent prints the scripted model's closing reply.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createScriptedModelServer, type ScriptedRequestBody } from '../fakes/scripted-model-server.js';
import { conformanceGrant, conformanceServerYaml } from './conformance-server-yaml.js';

/** Arguments the scripted model gives the scenario tools that take some; every other tool gets `{}`. */
const toolArguments: Readonly<Record<string, Readonly<Record<string, unknown>>>> = { conformance__add_numbers: { a: 2, b: 3 } };

const repositoryRoot = resolve(import.meta.dirname, '..', '..', '..');

async function main(): Promise<number> {
  const serverUrl = process.argv.at(-1);
  if (serverUrl === undefined || !/^https?:\/\//.test(serverUrl)) {
    process.stderr.write('usage: drive-client <server-url> (the conformance suite appends it)\n');
    return 2;
  }
  const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? '';
  const model = await createScriptedModelServer();
  // First request: call every tool of the scenario's server at once; next: say what came back.
  model.setFallback((body) => {
    const results = (body.messages ?? []).filter((message) => message.role === 'tool');
    if (results.length > 0) return { text: `conformance ${scenario}: ${results.map((message) => String(message.content)).join(' | ')}` };
    const offered = offeredConformanceTools(body);
    if (offered.length === 0) return { text: `conformance ${scenario}: no tools offered` };
    return { toolCalls: offered.map((name) => ({ name, arguments: toolArguments[name] ?? {} })) };
  });
  const dataDir = mkdtempSync(join(tmpdir(), 'echo-conformance-'));
  try {
    const configFile = join(dataDir, 'conformance.yaml');
    writeFileSync(configFile, conformanceServerYaml({ url: serverUrl, scenario, context: process.env.MCP_CONFORMANCE_CONTEXT }));
    const expectsLink = scenario.startsWith('auth/') && conformanceGrant(scenario) === 'authorization_code';
    const code = await runChat({ configFile, dataDir, modelUrl: model.url, line: `Use the conformance tools (${scenario}).`, expectsLink, closingReply: `conformance ${scenario}: ` });
    process.stderr.write(`drive-client: ${scenario}: echo-agent chat exited ${code}; ${model.requests.length} model requests\n`);
    return code ?? 1;
  } finally {
    await model.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

function offeredConformanceTools(body: ScriptedRequestBody): string[] {
  const tools = (body.tools ?? []) as readonly { readonly function?: { readonly name?: string } }[];
  return tools.map((tool) => tool.function?.name ?? '').filter((name) => name.startsWith('conformance__'));
}

/** The sentence echo-agent sends an approver with the authorization link (src/app/wire-mcp-oauth.ts). */
const linkPattern = /Open this link and approve: (\S+)/g;
/** How long to wait for an authorization link before asking for the tools anyway. */
const linkWaitMs = 15_000;
/** The chat's offer, under a form elicitation's question, to send every remaining field's default (src/i18n/elicitation-messages.ts). */
const acceptRestOffer = '"Accept the rest as default"';
/** The line the person types to take that offer. */
const acceptRestLine = 'Accept the rest as default';
/** Longest the chat's standard input stays open without the closing reply; then it ends, and so does the chat. */
const closingReplyWaitMs = 35_000;

/**
 * Runs `echo-agent chat`; its stdout is copied to ours (the suite keeps it) and read for authorization links, each
 * opened like a person's browser would, and for elicitation questions, each answered with "Accept the rest as
 * default". The line goes in once the first link was followed, or at once when no authorization-code flow is
 * configured, or after `linkWaitMs`. Standard input ends once `closingReply` was printed (or after
 * `closingReplyWaitMs`), and the chat exits with it.
 */
function runChat(input: {
  readonly configFile: string;
  readonly dataDir: string;
  readonly modelUrl: string;
  readonly line: string;
  readonly expectsLink: boolean;
  readonly closingReply: string;
}): Promise<number | null> {
  return new Promise((resolveRun, reject) => {
    const child = spawn(process.execPath, [join(repositoryRoot, 'dist', 'src', 'app', 'main.js'), 'chat', '--config', input.configFile], {
      cwd: repositoryRoot,
      env: {
        PATH: process.env.PATH ?? '/usr/bin:/bin',
        HOME: process.env.HOME ?? tmpdir(),
        OPENAI_BASE_URL: input.modelUrl,
        // Random: the logger scrubs secret values from its lines, and a word like the server's name would go too.
        OPENAI_API_KEY: randomBytes(12).toString('hex'),
        ECHO_DATA_DIR: input.dataDir,
        ECHO_LOG_LEVEL: process.env.ECHO_LOG_LEVEL ?? 'warn',
        ECHO_SECRET_KEY: randomBytes(24).toString('base64url'),
        GATEWAY_PORT: '0',
      },
      stdio: ['pipe', 'pipe', 'inherit'],
    });
    // The chat may exit while a line is on its way (a failing scenario); that is told by its exit code, not EPIPE.
    child.stdin.on('error', () => undefined);
    let lineSent = false;
    let ended = false;
    const endInput = () => {
      if (ended) return;
      ended = true;
      clearTimeout(giveUp);
      child.stdin.end();
    };
    const giveUp = setTimeout(endInput, closingReplyWaitMs);
    const sendLine = () => {
      if (lineSent) return;
      lineSent = true;
      child.stdin.write(`${input.line}\n`);
    };
    const fallback = setTimeout(sendLine, input.expectsLink ? linkWaitMs : 0);
    let seen = '';
    let followed = 0;
    let answered = 0;
    child.stdout.on('data', (chunk: Buffer) => {
      process.stdout.write(chunk);
      seen += chunk.toString('utf8');
      const offers = seen.split(acceptRestOffer).length - 1;
      for (; answered < offers && !ended; answered += 1) {
        process.stderr.write(`drive-client: answering the elicitation question: ${acceptRestLine}\n`);
        child.stdin.write(`${acceptRestLine}\n`);
      }
      if (seen.includes(input.closingReply)) endInput();
      const links = [...seen.matchAll(linkPattern)].map((match) => match[1] ?? '');
      for (const link of links.slice(followed)) {
        followed += 1;
        void followAsBrowser(link).then((outcome) => {
          process.stderr.write(`drive-client: followed the authorization link: ${outcome}\n`);
          clearTimeout(fallback);
          sendLine();
        });
      }
    });
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(fallback);
      clearTimeout(giveUp);
      resolveRun(code);
    });
  });
}

/** Opens the link, follows the authorization server's redirect to echo-agent's callback, and reports what it said. */
async function followAsBrowser(link: string): Promise<string> {
  try {
    const approval = await fetch(link, { redirect: 'manual' });
    const location = approval.headers.get('location');
    if (location === null) return `the authorization server answered ${approval.status} without a redirect`;
    const callback = await fetch(new URL(location, link));
    return `${callback.status} ${(await callback.text()).trim()}`;
  } catch (error) {
    return `failed: ${error instanceof Error ? error.message : String(error)}`;
  }
}

process.exitCode = await main();
