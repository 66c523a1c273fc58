import { z } from 'zod';

const riskSchema = z.enum(['read_only', 'write', 'exec', 'dangerous']);

/** A peer's name: the tool is `a2a__<name>`. */
export const a2aPeerNameSchema = z.string().regex(/^[A-Za-z0-9_-]{1,40}$/, 'letters, digits, _ and - (at most 40)');

/** One A2A peer: another agent this one may hand a task to, through the governed tool `a2a__<name>`. */
export const a2aPeerSchema = z.strictObject({
  url: z.url().describe("The peer's base URL; its Agent Card is read from <url>/.well-known/agent-card.json."),
  headers: z.record(z.string(), z.string()).default({}).describe('Headers sent with every request (e.g. Authorization: Bearer <key> from an environment variable); every value is a secret, masked in logs.'),
  risk: riskSchema.default('write').describe('The risk of a call (the approval gate decides by it); a peer acts in the world, so write unless it only reads.'),
  timeoutSeconds: z.coerce.number().int().positive().max(3600).default(300).describe('Longest a call waits for the peer\'s task to finish (the turn\'s own agent.turnTimeoutMs still applies); past it the tool fails and says so.'),
  description: z.string().max(500).optional().describe('What the model reads about the peer (what it does, what to send it); default a generic line naming it.'),
});

/** `a2a`: Agent2Agent peers, offered as tools `a2a__<name>` only where tools.allow or tools.alsoAllow name them. */
export const a2aSchema = z
  .strictObject({
    peers: z.record(a2aPeerNameSchema, a2aPeerSchema).default({}).describe('Other agents, each a governed tool a2a__<name>: offered only through tools.allow/alsoAllow, risk from here, audited.'),
  })
  .prefault({});

/** One validated peer. */
export type A2aPeer = z.output<typeof a2aPeerSchema>;
