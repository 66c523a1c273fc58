/** What the session does after the gateway closed the connection with a code. */
export type GatewayCloseAction = 'resume' | 'identify' | 'stop';

// error-trace/websocket.md: which codes allow RESUME, which only IDENTIFY, and which neither.
const stopCodes = new Set([4001, 4002, 4010, 4011, 4012, 4013, 4014, 4914, 4915]);
const identifyCodes = new Set([4006, 4007]);

/** Decides from a close code: resume the session, start a new one, or stop (retrying cannot help). Pure. */
export function gatewayCloseAction(code: number): GatewayCloseAction {
  if (stopCodes.has(code)) return 'stop';
  if (identifyCodes.has(code) || (code >= 4900 && code <= 4913)) return 'identify';
  // 4008 (too fast), 4009 (connection expired) and every network-level close: the session may resume.
  return 'resume';
}
