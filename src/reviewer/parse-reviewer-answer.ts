import { z } from 'zod';
import type { ReviewerDecision } from './reviewer-verdict.js';

const longestReason = 200;

const jsonAnswerSchema = z.strictObject({
  decision: z.enum(['approve', 'deny', 'escalate']),
  reason: z.string().trim().min(1).max(longestReason),
});

const lineAnswerPattern = /^(APPROVE|DENY|ESCALATE):[ \t]*(\S[^\r\n]*)$/;

/**
 * Reads the reviewer's answer strictly: the whole text is either one JSON object
 * `{"decision":"approve|deny|escalate","reason":"..."}` or one line `APPROVE|DENY|ESCALATE: reason`.
 * Anything else (prose around it, two lines, an unknown word, an empty reason) is `undefined`: the caller escalates.
 */
export function parseReviewerAnswer(text: string): { readonly decision: ReviewerDecision; readonly reason: string } | undefined {
  const trimmed = text.trim();
  if (trimmed.startsWith('{')) {
    let value: unknown;
    try {
      value = JSON.parse(trimmed);
    } catch {
      return undefined;
    }
    const parsed = jsonAnswerSchema.safeParse(value);
    if (!parsed.success || /[\r\n]/.test(parsed.data.reason)) return undefined;
    return { decision: parsed.data.decision, reason: cleanReason(parsed.data.reason) };
  }
  const match = lineAnswerPattern.exec(trimmed);
  if (!match || (match[2] ?? '').length > longestReason) return undefined;
  return { decision: (match[1] ?? '').toLowerCase() as ReviewerDecision, reason: cleanReason(match[2] ?? '') };
}

/** One printable line: control characters dropped, spaces collapsed. */
function cleanReason(reason: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: stripping control characters is the point.
  return reason.replace(/[\u0000-\u001f\u007f]/g, ' ').replace(/\s+/g, ' ').trim();
}
