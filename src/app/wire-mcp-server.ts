import type { Config } from '../config/config-schema.js';
import type { Gateway } from '../gateway/create-gateway.js';
import type { Logger } from '../logging/create-logger.js';
import type { CallerRequestRecord } from '../mcp-server/caller-requests.js';
import type { WiredRuntime } from './build-runtime.js';
import type { Infrastructure } from './open-infrastructure.js';

/** How long a caller's request id is remembered: the approval window plus a week, like the approval records. */
const keepAfterWindowMs = 7 * 24 * 60 * 60_000;

/**
 * Mounts echo-agent's MCP server (`mcp.serve`) on the gateway, over the runtime's own approval service, caller
 * questions, routing, outbox, audit log and budgets. Returns a line for start-up, or undefined when it is off.
 */
export async function wireMcpServer(input: { readonly config: Config; readonly logger: Logger; readonly infrastructure: Infrastructure; readonly wired: WiredRuntime; readonly gateway: Gateway }): Promise<string | undefined> {
  const { config, infrastructure, wired } = input;
  const serve = config.mcp.serve;
  if (!serve.enabled) return undefined;
  if (!wired.callerQuestions) return undefined;
  if (serve.keys.length === 0) return `mcp server: off (mcp.serve.enabled but no keys in mcp.serve.keys)`;
  // Loaded only when served: an agent without mcp.serve does not pay for the server's modules (nor the MCP SDK's).
  const [{ createCallerRequests }, { createMcpServeRoute }, { createRateLimiter }] = await Promise.all([
    import('../mcp-server/caller-requests.js'),
    import('../mcp-server/create-mcp-serve-route.js'),
    import('../mcp-server/create-rate-limiter.js'),
  ]);
  const requests = createCallerRequests({
    approvals: wired.approvals,
    approvalRouteFor: wired.approvalRouteFor,
    questions: wired.callerQuestions,
    requests: infrastructure.store.namespace<CallerRequestRecord>('caller-requests'),
    requestIndex: infrastructure.store.namespace<string[]>('caller-requests-index'),
    outbox: infrastructure.outbox,
    audit: infrastructure.audit,
    budgets: infrastructure.budgets.control,
    limiter: createRateLimiter(),
    pollMs: 250,
    keepMs: config.approvals.timeoutMinutes * 60_000 + keepAfterWindowMs,
  });
  input.gateway.mount(createMcpServeRoute({ serve, requests, logger: input.logger.child({ component: 'mcp-server' }), version: '0.1.0' }));
  return `mcp server: POST ${serve.path} on the gateway, ${serve.keys.length} key(s): ${serve.keys.map((key) => `${key.name} → ${key.chat.channel}:${key.chat.chatId}`).join(', ')}`;
}
