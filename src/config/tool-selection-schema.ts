import { z } from 'zod';
import { commaList } from './comma-list.js';

const toolNameList = commaList.default([]);

/** Per-scope tool selection: a profile, an exclusive allow list, additions and denials. */
export const toolSelectionSchema = z.strictObject({
  profile: z.enum(['minimal', 'messaging', 'coding', 'full']).optional().describe('Tool profile; the global default is messaging.'),
  allow: toolNameList.describe('When non-empty, exactly these tools (replaces the profile).'),
  alsoAllow: toolNameList.describe('Tools added to the profile.'),
  deny: toolNameList.describe('Tools never offered or run; deny always wins.'),
});
