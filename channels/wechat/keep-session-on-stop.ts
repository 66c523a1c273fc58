/** The parts of wechat4u's client (inside wechaty-puppet-wechat4u 1.14.x) that a stop touches. */
type Wechat4uClient = {
  logout: () => Promise<string>;
  removeAllListeners: (event: string) => unknown;
};

function isWechat4uClient(value: unknown): value is Wechat4uClient {
  if (typeof value !== 'object' || value === null) return false;
  const candidate = value as Partial<Record<keyof Wechat4uClient, unknown>>;
  return typeof candidate.logout === 'function' && typeof candidate.removeAllListeners === 'function';
}

/**
 * Makes the next stop of a wechat4u puppet a disconnect, not a logout. Its stop() posts webwxlogout
 * (ending the session on WeChat's side), and its logout handler then wipes the saved session from the
 * memory card and calls start() on a client it has just cleared, an unhandled rejection that can end
 * the process. Dropping both keeps the login for the next start. Other puppets are left alone.
 */
export function keepSessionOnStop(puppet: unknown): void {
  const client = typeof puppet === 'object' && puppet !== null ? (puppet as { wechat4u?: unknown }).wechat4u : undefined;
  if (!isWechat4uClient(client)) return;
  client.removeAllListeners('logout');
  client.logout = async () => 'kept the session for the next start';
}
