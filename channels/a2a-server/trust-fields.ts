/** Metadata keys that would name who the caller is or how far it is trusted: the agent sets these, never a payload. */
const trustKeys = new Set(['origin', 'unattended', 'sender', 'senderid', 'userid', 'user', 'trust', 'toolscope', 'tools', 'allowedtools', 'billedto', 'channel', 'approvers', 'approved', 'risk']);

/**
 * The trust fields a JSON-RPC request tries to set in its metadata (the request's or its message's), e.g.
 * `["params.message.metadata.origin"]`; empty when it sets none. Pure.
 */
export function trustFieldsIn(body: unknown): string[] {
  const params = isRecord(body) && isRecord(body.params) ? body.params : undefined;
  if (params === undefined) return [];
  const found: string[] = [];
  const scan = (value: unknown, path: string) => {
    if (!isRecord(value)) return;
    for (const key of Object.keys(value)) if (trustKeys.has(key.toLowerCase().replace(/[_-]/g, ''))) found.push(`${path}.${key}`);
  };
  scan(params.metadata, 'params.metadata');
  if (isRecord(params.message)) scan(params.message.metadata, 'params.message.metadata');
  return found;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
