import { z } from 'zod';

// Only the fields the channel reads are declared; zod strips the rest. Bounds keep a hostile payload small.
const openid = z.string().min(1).max(128);

const attachmentSchema = z.object({
  content_type: z.string().max(128).optional(),
  filename: z.string().max(1024).optional(),
  size: z.number().nonnegative().optional(),
  url: z.string().max(4096).optional(),
  width: z.number().optional(),
  height: z.number().optional(),
});

const messageShape = {
  id: z.string().min(1).max(256),
  content: z.string().max(65_536).default(''),
  timestamp: z.string().max(64),
  // Lenient: a shape QQ changes drops the attachments (the message says less), never the message.
  attachments: z.array(attachmentSchema).max(32).optional().catch(undefined),
};

/** `d` of `C2C_MESSAGE_CREATE`: a person's private message to the bot. */
export const c2cMessageSchema = z.object({ ...messageShape, author: z.object({ user_openid: openid }) });

/** `d` of `GROUP_AT_MESSAGE_CREATE`: a group member @-mentioned the bot. */
export const groupAtMessageSchema = z.object({ ...messageShape, group_openid: openid, author: z.object({ member_openid: openid }) });

/** A validated private message. */
export type QqC2cMessage = z.infer<typeof c2cMessageSchema>;
/** A validated group @-message. */
export type QqGroupAtMessage = z.infer<typeof groupAtMessageSchema>;
/** A file attached to a message, as QQ describes it. */
export type QqAttachment = z.infer<typeof attachmentSchema>;

/** The message events the channel reads. */
export type QqMessageEvent = { readonly type: 'C2C_MESSAGE_CREATE'; readonly data: QqC2cMessage } | { readonly type: 'GROUP_AT_MESSAGE_CREATE'; readonly data: QqGroupAtMessage };

/** Parses `d` of a dispatch by its `t`; other event types are `ignored`, a malformed message a failure value. */
export function parseMessageEvent(type: string | undefined, data: unknown): { readonly ok: true; readonly event: QqMessageEvent } | { readonly ok: false; readonly ignored: boolean; readonly reason: string } {
  if (type === 'C2C_MESSAGE_CREATE') {
    const parsed = c2cMessageSchema.safeParse(data);
    return parsed.success ? { ok: true, event: { type, data: parsed.data } } : { ok: false, ignored: false, reason: describeIssues(type, parsed.error) };
  }
  if (type === 'GROUP_AT_MESSAGE_CREATE') {
    const parsed = groupAtMessageSchema.safeParse(data);
    return parsed.success ? { ok: true, event: { type, data: parsed.data } } : { ok: false, ignored: false, reason: describeIssues(type, parsed.error) };
  }
  return { ok: false, ignored: true, reason: `event ${type ?? '(none)'} is not a message the channel reads` };
}

function describeIssues(type: string, error: z.ZodError): string {
  return `malformed ${type}: ${error.issues.map((issue) => `${issue.path.join('.')} ${issue.message}`).join('; ')}`;
}
