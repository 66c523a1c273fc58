import type { ConsolePerson } from '../agent/runtime-dependencies.js';
import type { ConsoleSession } from './console-sessions.js';

/**
 * Who is looking at a page: the person of the session, and whether they are an approver of their channel, decided by
 * the channel's configured approvers at each request (never by anything the browser sends).
 */
export type ConsoleViewer = { readonly session: ConsoleSession; readonly person: ConsolePerson; readonly isApprover: boolean };

/** Whether the viewer may see something of this channel and chat: approvers everything, others only their own chats. */
export function viewerSees(viewer: ConsoleViewer, where: { readonly channel?: string; readonly userId?: string; readonly sessionKey?: string }): boolean {
  if (viewer.isApprover) return true;
  if (where.channel !== undefined && where.channel !== viewer.person.channel) return false;
  if (where.userId !== undefined && where.userId === viewer.person.userId) return true;
  // A private chat's session key is `<channel>:<userId>`; a member's own group session ends with `:<userId>`.
  const key = where.sessionKey ?? '';
  return key === `${viewer.person.channel}:${viewer.person.userId}` || (key.startsWith(`${viewer.person.channel}:`) && key.endsWith(`:${viewer.person.userId}`));
}
