import { z } from 'zod';
import type { ChannelConfigSection } from './channel-config-section.js';
import { budgetPeriodsSchema } from './budget-periods-schema.js';
import { commaList, flexibleBoolean, optionalText } from './comma-list.js';
import { mcpServeSchema } from './mcp-serve-schema.js';
import { memorySchema } from './memory-config-schema.js';
import { hooksSchema } from './hooks-config-schema.js';
import { toolSelectionSchema } from './tool-selection-schema.js';
import { a2aSchema } from './a2a-schema.js';
import { tracingSchema } from './tracing-schema.js';
import { consoleSchema } from './console-schema.js';
import { runtimeSchema } from './runtime-schema.js';

export { toolSelectionSchema } from './tool-selection-schema.js';

const toolNameList = commaList.default([]);


const modelEndpointSchema = z.strictObject({
  provider: z.enum(['openai', 'anthropic']).describe('openai: any OpenAI-compatible endpoint. anthropic: the Messages API.'),
  baseUrl: optionalText.describe('Endpoint base URL, e.g. http://localhost:11434/v1 for Ollama.'),
  apiKey: optionalText.describe('API key; may be empty for a local endpoint.'),
  name: z.string().min(1).describe('Model name, e.g. gpt-4o-mini.'),
  timeoutMs: z.coerce.number().int().positive().default(60_000).describe('Per-request timeout.'),
  stream: flexibleBoolean.default(true).describe('Stream answers (OpenAI-compatible only).'),
  vision: flexibleBoolean.default(true).describe('The model reads images. false: an image becomes a short text note and the person is told once.'),
});

const transcriptionSchema = z.strictObject({
  baseUrl: optionalText.describe('OpenAI-compatible endpoint serving POST /audio/transcriptions (OpenAI, a local whisper server); empty: voice notes are not transcribed.'),
  apiKey: optionalText.describe('API key of the transcription endpoint; may be empty for a local one.'),
  model: z.string().min(1).default('whisper-1').describe('Transcription model name.'),
  timeoutMs: z.coerce.number().int().positive().default(120_000).describe('Longest one transcription may take.'),
});

const mebibyte = 1024 * 1024;

const pdfSchema = z.strictObject({
  maxPages: z.coerce.number().int().positive().default(500).describe('A PDF with more pages is not read; the person and the model are told.'),
  timeoutSeconds: z.coerce.number().positive().default(30).describe('Longest the out-of-process PDF reader may take for one file before it is killed.'),
  maxMemoryMb: z.coerce.number().int().min(128).default(512).describe('Memory ceiling of the PDF reader process (its heap and resident memory; the process needs about 90 MB to start); a PDF that expands past it is not read.'),
});

const mediaSchema = z.strictObject({
  keepHours: z.coerce.number().positive().default(72).describe('How long downloaded files stay in <dataDir>/attachments before they are purged.'),
  maxFileBytes: z.coerce.number().int().positive().default(20 * mebibyte).describe('Largest file downloaded; a channel whose platform allows less downloads less.'),
  maxTurnBytes: z.coerce.number().int().positive().default(50 * mebibyte).describe('Most bytes downloaded for one message (an album counts as one).'),
  maxImageBytes: z.coerce.number().int().positive().default(5 * mebibyte).describe('Largest image shown to the model; a bigger one is described instead.'),
  maxTextChars: z.coerce.number().int().positive().default(20_000).describe('Characters of text files and PDF text inlined per message, with a note when cut.'),
  maxSendBytes: z.coerce.number().int().positive().default(50 * mebibyte).describe('Largest file the send_file tool sends.'),
  pdf: pdfSchema.prefault({}).describe('Limits of PDF text extraction, which runs in a child process of its own.'),
});

const cronJobSchema = z.strictObject({
  id: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'letters, digits, _ and - only'),
  schedule: z.string().min(1).describe('5- or 6-field cron expression, or an ISO 8601 time.'),
  timezone: optionalText,
  prompt: z.string().min(1),
  target: z.string().regex(/^[a-z]+:.+$/, 'like <channel>:<chatId>'),
  catchUp: z.enum(['run-once', 'skip']).optional(),
});

const riskSchema = z.enum(['read_only', 'write', 'exec', 'dangerous']);

const limitNumber = z.coerce.number().int().min(0);

/** Ceilings of each command exec runs (and defaults for MCP servers); 0 means no limit. */
const sandboxLimitsSchema = z
  .strictObject({
    memoryMb: limitNumber.default(2048).describe('Private memory of each process, in MB (RLIMIT_DATA); an allocation past it fails.'),
    cpuSeconds: limitNumber.default(600).describe('CPU time of each process, in seconds (RLIMIT_CPU); past it the process is killed (SIGXCPU).'),
    processes: limitNumber
      .default(512)
      .describe('Processes and threads: a pids cgroup per call where the agent may make one (cgroup v1 pids, e.g. root in a VM), else RLIMIT_NPROC, counted per user and not enforced for root.'),
  })
  .prefault({});

const sandboxLimitsOverrideSchema = z
  .strictObject({ memoryMb: limitNumber.optional(), cpuSeconds: limitNumber.optional(), processes: limitNumber.optional() })
  .default({});

/**
 * An MCP server's name: the part before `__` in its tools' names, so it may not start or end with `_` nor hold `__`
 * (else `a_` would make `a__*` globs and `always` grants match `a___x`, a tool of another server).
 */
export const mcpServerNameSchema = z
  .string()
  .regex(/^[A-Za-z0-9_-]{1,24}$/, 'a server name is letters, digits, _ and - only, at most 24')
  .refine((name) => !name.startsWith('_') && !name.endsWith('_') && !name.includes('__'), {
    message: 'a server name may not start or end with _ nor contain __, since its tools are named <server>__<tool>; rename it, e.g. my-files',
  });

/** How echo-agent authorizes itself to a remote MCP server behind OAuth (Streamable HTTP only). */
export const mcpOAuthSchema = z.strictObject({
  grant: z
    .enum(['authorization_code', 'client_credentials', 'cross_app_access'])
    .default('authorization_code')
    .describe(
      'authorization_code: a person approves once through a link the agent sends an approver in the chat (PKCE). client_credentials: headless, with clientId and clientSecret (or privateKey). cross_app_access: enterprise-managed (SEP-990), the person\'s ID token from the identity provider exchanged for a grant (idpTokenEndpoint, idpClientId, idToken), then for a token with clientId and clientSecret.',
    ),
  clientId: optionalText.describe('A pre-registered client id; without one the client registers itself (dynamic client registration) where the server allows it.'),
  clientSecret: optionalText.describe('The pre-registered client secret, from an environment variable.'),
  privateKey: optionalText.describe(
    'Instead of clientSecret: a PEM private key (from an environment variable) the client authenticates with, as a signed JWT assertion (private_key_jwt, RFC 7523) whose issuer and subject are clientId; its public key is registered with the authorization server.',
  ),
  privateKeyAlgorithm: z
    .enum(['RS256', 'PS256', 'ES256', 'ES384', 'ES512', 'EdDSA'])
    .optional()
    .describe('The algorithm the assertion is signed with; default the one the key implies (RSA: RS256, EC: ES256/384/512 by curve, Ed25519: EdDSA).'),
  scope: optionalText.describe('Scopes to ask for (space-separated); default what the server advertises.'),
  idpTokenEndpoint: optionalText.pipe(z.url().optional()).describe('cross_app_access: the token endpoint of the enterprise identity provider, where the ID token is exchanged (RFC 8693).'),
  idpClientId: optionalText.describe('cross_app_access: echo-agent\'s client id at the identity provider.'),
  idpClientSecret: optionalText.describe('cross_app_access: echo-agent\'s client secret at the identity provider, if it has one, from an environment variable.'),
  idToken: optionalText.describe(
    'cross_app_access: the person\'s ID token from the identity provider, from an environment variable that your single sign-on keeps fresh (echo-agent signs no one in; an expired one leaves the server down with the reason).',
  ),
});

/** One MCP server: a command the agent starts (stdio) or a URL (Streamable HTTP). */
export const mcpServerSchema = z
  .strictObject({
    command: optionalText.describe('stdio: the program to start, e.g. npx or node.'),
    args: z.array(z.string()).default([]).describe('stdio: its arguments.'),
    env: z.record(z.string(), z.string()).default({}).describe('stdio: extra variables for the child; nothing else is inherited but PATH (mcp.path), HOME, LANG and TZ.'),
    cwd: optionalText.describe('stdio: the folder it starts in (default the current one; in the sandbox it is empty unless mounted).'),
    url: optionalText.pipe(z.url().optional()).describe('Streamable HTTP: the endpoint, e.g. http://127.0.0.1:3001/mcp.'),
    headers: z.record(z.string(), z.string()).default({}).describe('Streamable HTTP: headers sent with every request, e.g. an Authorization header from an environment variable.'),
    risk: riskSchema.default('write').describe('Risk of its tools unless overridden per tool; the server cannot lower it. read_only runs, anything else asks.'),
    tools: z
      .record(z.string(), z.strictObject({ risk: riskSchema.describe('Risk of this tool.') }))
      .default({})
      .describe('Per-tool overrides, by the name the server gives the tool.'),
    timeoutSeconds: z.coerce.number().positive().default(30).describe('Longest one tool call may take.'),
    network: flexibleBoolean
      .default(false)
      .describe('stdio: let the sandboxed server use the network (default: none, only a loopback of its own). Servers that call an API or download (npx -y) need network: true.'),
    mounts: z
      .array(
        z.union([
          z.string().refine((value) => value.startsWith('/'), 'an absolute path'),
          z.strictObject({ path: z.string().refine((value) => value.startsWith('/'), 'an absolute path'), writable: flexibleBoolean.default(false) }),
        ]),
      )
      .default([])
      .describe('stdio: paths the sandboxed server sees, read-only unless { path, writable: true }; nothing else of the agent (data folder, home, project, config) is visible.'),
    limits: sandboxLimitsOverrideSchema.describe('stdio: this server\'s ceilings; memoryMb and processes default to tools.limits, cpuSeconds to none (a server\'s CPU time adds up over its whole life).'),
    startupTimeoutSeconds: z.coerce.number().positive().default(10).describe('Longest start-up waits for this server; it keeps connecting in the background after.'),
    oauth: mcpOAuthSchema.optional().describe('Streamable HTTP: authorize with OAuth (discovery, registration, tokens kept encrypted with mcp.secretKey and refreshed before they expire).'),
    sampling: flexibleBoolean
      .default(false)
      .describe('Let this server ask the agent\'s model for text completions (sampling/createMessage), counted in budgets as the job mcp:<name> and audited. Off: the capability is not declared.'),
  })
  .refine((server) => (server.command === undefined) !== (server.url === undefined), { message: 'give either command (stdio) or url (Streamable HTTP), not both' })
  .refine((server) => server.oauth === undefined || server.url !== undefined, { message: 'oauth is for servers reached by url' })
  .refine((server) => server.oauth?.grant !== 'client_credentials' || (server.oauth.clientId !== undefined && (server.oauth.clientSecret !== undefined || server.oauth.privateKey !== undefined)), {
    message: 'the client_credentials grant needs oauth.clientId and oauth.clientSecret (or oauth.privateKey)',
  })
  .refine(
    (server) =>
      server.oauth?.grant !== 'cross_app_access' ||
      [server.oauth.clientId, server.oauth.clientSecret, server.oauth.idpTokenEndpoint, server.oauth.idpClientId, server.oauth.idToken].every((value) => value !== undefined),
    { message: 'the cross_app_access grant needs oauth.clientId, oauth.clientSecret, oauth.idpTokenEndpoint, oauth.idpClientId and oauth.idToken' },
  )
  .refine((server) => server.oauth?.privateKey === undefined || (server.oauth.clientId !== undefined && server.oauth.clientSecret === undefined), {
    message: 'oauth.privateKey authenticates a pre-registered client: give oauth.clientId, and no oauth.clientSecret',
  });


/** Spend controls: budgets per chat, user, cron job and overall, and a ceiling per turn. Everything is off unless set. */
export const budgetsSchema = z
  .strictObject({
    softLimit: z.coerce.number().gt(0).max(1).default(0.8).describe('Share of a budget at which a card asks whether to continue (attended turns; once per period). 1: no card.'),
    currency: z.string().min(1).default('USD').describe('Name of the currency the price table is in, as shown in messages.'),
    chat: budgetPeriodsSchema.optional().describe('Each chat (a group shares one).'),
    user: budgetPeriodsSchema.optional().describe('Each person, per channel.'),
    job: budgetPeriodsSchema.optional().describe('Each scheduled job.'),
    global: budgetPeriodsSchema.optional().describe('Everything together.'),
    perTurn: z
      .strictObject({
        tokens: z.coerce.number().int().positive().optional().describe('Tokens one turn may use before it is stopped.'),
        modelCalls: z.coerce.number().int().positive().optional().describe('Model calls one turn may make before it is stopped.'),
      })
      .optional()
      .describe('A ceiling per turn, against loops that would burn a budget in one go.'),
    reserveOutputTokens: z.coerce
      .number()
      .int()
      .positive()
      .default(1000)
      .describe('Output tokens a model call that sets no maxTokens is assumed to use: reserved against budgets before the call (with its input by length), settled to the real usage after.'),
  })
  .prefault({});

/** Price of one model, per million tokens. */
const modelPriceSchema = z.strictObject({
  input: z.coerce.number().min(0).describe('Per million input tokens.'),
  cachedInput: z.coerce.number().min(0).optional().describe('Per million input tokens read from the prompt cache; default the input price.'),
  output: z.coerce.number().min(0).describe('Per million output tokens.'),
});

const gatewaySchema = z.strictObject({
  host: z.string().default('127.0.0.1').describe('Address the HTTP gateway listens on (server mode: /healthz, /metrics and the routes channels mount).'),
  port: z.coerce.number().int().min(0).max(65_535).default(8787).describe('Port of the HTTP gateway.'),
  metricsToken: optionalText.describe('When set, /metrics and the detailed /healthz need Authorization: Bearer <token>; without it /healthz says only ok.'),
});

/** The configuration without `channels`: the core's sections. Every section is strict: a misspelt key is reported, never dropped. */
export const coreConfigSchema = z.strictObject({
  agent: z
    .strictObject({
      name: z.string().default('echo-agent'),
      systemPrompt: z.string().default('You are echo-agent, a helpful assistant that lives in chat. Answer concisely.'),
      timezone: z.string().default('UTC').describe('IANA timezone for the system prompt and schedules.'),
      locale: z.enum(['en', 'zh-CN']).default('en').describe('Language of user-facing messages.'),
      maxIterations: z.coerce.number().int().min(1).max(100).default(12).describe('Model calls per turn before a forced final answer.'),
      historyBudgetChars: z.coerce.number().int().min(1000).default(40_000).describe('Characters of history kept per session.'),
      turnTimeoutMs: z.coerce.number().int().positive().default(300_000).describe('Longest a turn may run before its model calls and tools are stopped.'),
      delegation: z
        .strictObject({
          maxDepth: z.coerce.number().int().min(1).max(10).default(2).describe('How deep sub-tasks (the delegate tool) may nest below a person\'s turn: 2 lets a sub-task delegate once more.'),
          maxParallel: z.coerce.number().int().min(1).max(20).default(3).describe('Sub-tasks one turn may run at the same time (delegate calls in one batch).'),
        })
        .prefault({})
        .describe('Limits of the delegate tool: a sub-task only ever gets a subset of its parent\'s tools and a slice of its budget.'),
    })
    .prefault({}),
  model: z
    .strictObject({
      primary: modelEndpointSchema,
      fallback: modelEndpointSchema.optional(),
      retries: z.coerce.number().int().min(0).max(10).default(3),
      transcription: transcriptionSchema.prefault({}).describe('Speech to text for voice notes, audio and video notes.'),
    })
    .describe('The model endpoints: primary, and an optional fallback used when the primary fails.'),
  storage: z
    .strictObject({
      dataDir: z.string().default('./data').describe('Folder for the SQLite file, audit log and workspace.'),
      url: optionalText.describe('Empty: SQLite in dataDir. redis://host:port for Redis (one process). postgres://user@host:port/db for PostgreSQL.'),
      operationTimeoutMs: z.coerce.number().int().positive().default(5000).describe('Longest one store call may take before it fails and the store counts as degraded.'),
      purgeEveryMinutes: z.coerce.number().positive().default(60).describe('How often expired rows are deleted (keyv alone deletes them only when read).'),
      dedupeHours: z.coerce.number().positive().default(24).describe('How long the ids of handled channel updates and messages (and of events whose reply went out) are kept to drop re-deliveries and re-runs.'),
      sessionIdleDays: z.coerce.number().positive().default(90).describe('A conversation untouched this long is forgotten.'),
    })
    .prefault({}),
  cluster: z
    .strictObject({
      heartbeatSeconds: z.coerce
        .number()
        .int()
        .min(10)
        .default(10)
        .describe('PostgreSQL only: a turn whose instance sends no heartbeat for this long is given to another instance.'),
      leaderCheckSeconds: z.coerce
        .number()
        .positive()
        .default(3)
        .describe("PostgreSQL only: how often a standby instance tries to take over a channel's leader role (a bot's poller, an account's login)."),
    })
    .prefault({})
    .describe('Several instances on one PostgreSQL (storage.url postgres://...): every setting has a default.'),
  media: mediaSchema.prefault({}).describe('Photos, voice notes and files people send, and files the agent sends.'),
  runtime: runtimeSchema,
  log: z.strictObject({ level: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info') }).prefault({}),
  bus: z
    .strictObject({
      maxConcurrentTurns: z.coerce.number().int().min(1).default(32),
      maxQueued: z.coerce.number().int().min(1).default(2000),
      maxQueuedPerSession: z.coerce.number().int().min(1).default(20),
      parkAfterInterruptions: z.coerce
        .number()
        .int()
        .min(1)
        .default(2)
        .describe(
          'A message, or a resumed turn (after an approval or an answer), whose processing was interrupted this many times (the process died, or the turn failed, while it ran) is parked instead of run again: the person is told once, `npm run parked` and `/parked` list, retry or drop it.',
        ),
    })
    .prefault({}),
  tools: toolSelectionSchema
    .extend({
      network: z.enum(['public-only', 'allow', 'deny']).default('public-only').describe('Which addresses web tools may reach.'),
      allowHosts: commaList.default([]).describe('Hosts let through the network policy anyway.'),
      execPath: z.string().default('/usr/local/bin:/usr/bin:/bin').describe('PATH given to commands the exec tool runs.'),
      sandbox: z
        .enum(['bwrap', 'off'])
        .default('bwrap')
        .describe('bwrap: exec runs commands, and stdio MCP servers run, in bubblewrap; both are refused when bwrap is missing. off: both run unsandboxed (explicit opt-out).'),
      sandboxNetwork: flexibleBoolean.default(false).describe('Let sandboxed commands use the network (default: no network).'),
      limits: sandboxLimitsSchema.describe('Memory, CPU time and process ceilings of each command exec runs; stdio MCP servers take memoryMb and processes from here unless their own limits say otherwise.'),
      workspaceDir: optionalText.describe('Folder file tools and exec are confined to (default <dataDir>/workspace).'),
      credentials: z.record(z.string(), z.record(z.string(), z.string())).default({}).describe('Per-tool credentials.'),
      capabilityRules: z.record(z.string(), z.enum(['allow', 'deny', 'ask'])).default({}).describe('Per-capability rule, e.g. network.outbound: ask.'),
    })
    .prefault({}),
  approvals: z
    .strictObject({
      timeoutMinutes: z.coerce.number().positive().default(30),
      require: toolNameList.describe('Tools that always ask.'),
      autoApprove: toolNameList.describe('Tools that never ask (hard blocks still apply).'),
      route: z.enum(['origin', 'approvers']).default('origin').describe("Where cards go: the requester's chat, or each approver's private chat."),
      explain: flexibleBoolean.default(true).describe('Ask the model for a one-sentence risk explanation.'),
      mode: z
        .enum(['manual', 'smart', 'off'])
        .default('manual')
        .describe('manual: a person decides every call that asks. smart: a reviewer model settles exec and write calls first and asks a person about the rest. off: nothing asks (hard blocks, approvals.require and unattended rules still apply).'),
      reviewerModel: modelEndpointSchema.optional().describe('The reviewer in smart mode; default the primary model.'),
      reviewerTimeoutMs: z.coerce.number().int().positive().default(8000).describe('Longest the reviewer may take; past it the call goes to a person.'),
      reviewerNotice: z.enum(['chat', 'silent']).default('chat').describe('chat: a short line in the chat when the reviewer approved or denied a call. silent: audit log and /approvals only.'),
    })
    .prefault({}),
  gateway: gatewaySchema.prefault({}).describe('The HTTP gateway, core infrastructure in server mode: /healthz, /metrics and the routes channels mount (GATEWAY_HOST, GATEWAY_PORT, GATEWAY_METRICS_TOKEN).'),
  cron: z.strictObject({ jobs: z.array(cronJobSchema).default([]) }).prefault({}),
  hooks: hooksSchema.describe('Named hooks: each a route POST /hooks/<name> on the gateway for a real sender (GitHub, Stripe, Standard Webhooks, HMAC, bearer), answered in a chat.'),
  mcp: z
    .strictObject({
      servers: z
        .record(mcpServerNameSchema, mcpServerSchema)
        .default({})
        .describe('MCP servers whose tools join the registry as <server>__<tool>; offered only where tools.allow or tools.alsoAllow name them (server__* globs).'),
      path: z.string().default('/usr/local/bin:/usr/bin:/bin').describe('PATH given to stdio servers.'),
      retryMaxSeconds: z.coerce.number().positive().default(60).describe('Longest wait between attempts to reconnect a server that is down.'),
      serve: mcpServeSchema.describe('echo-agent as an MCP server: coding agents ask the person in the chat (ask_person, request_approval, notify, list_pending).'),
      secretKey: optionalText.describe('Key that encrypts MCP OAuth tokens at rest (AES-256-GCM), from ECHO_SECRET_KEY; without it no token is stored and OAuth servers stay down.'),
      oauthCallbackUrl: optionalText
        .pipe(z.url().optional())
        .describe('Where the authorization server sends the person back: this gateway\'s /mcp/oauth/callback as the browser reaches it (default http://<gateway.host>:<gateway.port>/mcp/oauth/callback).'),
      oauthClientMetadataUrl: optionalText
        .pipe(z.url().optional())
        .refine((url) => url === undefined || (url.startsWith('https://') && new URL(url).pathname !== '/'), 'an https:// URL with a path, e.g. https://echo.example.com/mcp/oauth/client-metadata.json')
        .describe(
          'The HTTPS URL where authorization servers fetch echo-agent\'s client ID metadata document (this gateway serves it at /mcp/oauth/client-metadata.json); offered as client_id where the server supports it, instead of registering dynamically. Default: next to mcp.oauthCallbackUrl when that is https, else none.',
        ),
    })
    .prefault({})
    .describe('Model Context Protocol servers, as governed tools.'),
  a2a: a2aSchema.describe('Agent2Agent (A2A) peers: other agents as governed tools a2a__<name>.'),
  memory: memorySchema,
  budgets: budgetsSchema.describe('Spend controls: token and cost budgets per chat, user, job and overall, per day and month, and a ceiling per turn. Off unless set.'),
  prices: z
    .record(z.string().min(1), modelPriceSchema)
    .default({})
    .describe('Price per million tokens, by model name as configured (model.primary.name); models not listed count tokens only.'),
  tracing: tracingSchema.prefault({}).describe('OpenTelemetry traces over OTLP/HTTP, from the standard OTEL_* variables; off (nothing loaded) while no endpoint is set.'),
  console: consoleSchema.prefault({}).describe('The web console at /console on the gateway: approvals, activity, usage, schedules and health (CONSOLE_ENABLED, CONSOLE_PUBLIC_URL).'),
});

/**
 * The whole configuration file, after `${VAR}` interpolation: the core's sections and `channels`, one strict section
 * per channel the adapters contribute (a key for a channel no adapter contributes is reported, never dropped).
 */
export function createConfigSchema(sections: readonly ChannelConfigSection[]) {
  const channels = z.strictObject(Object.fromEntries(sections.map((section) => [section.name, section.schema.prefault({})]))).prefault({});
  // `channels` keeps its place after approvals, so the generated reference reads in the file's order.
  const { cron, hooks, mcp, budgets, prices, tracing, console, ...head } = coreConfigSchema.shape;
  return z.strictObject({ ...head, channels, cron, hooks, mcp, budgets, prices, tracing, console });
}

/** The validated configuration the runtime reads; a channel reads its own section typed through its `ChannelConfigSection`. */
export type Config = z.output<typeof coreConfigSchema> & { readonly channels: Readonly<Record<string, unknown>> };
/** One configured MCP server. */
export type McpServerConfig = z.output<typeof mcpServerSchema>;
/** One configured hook (`hooks.<name>`). */
export type { HookConfig } from './hooks-config-schema.js';
/** An MCP server's OAuth settings, validated. */
export type McpOAuthConfig = z.output<typeof mcpOAuthSchema>;
/** The budgets section. */
export type BudgetsConfig = z.output<typeof budgetsSchema>;
/** One model's price per million tokens. */
export type ModelPrice = z.output<typeof modelPriceSchema>;
/** Tool selection for one scope. */
export type ToolSelection = z.output<typeof toolSelectionSchema>;
