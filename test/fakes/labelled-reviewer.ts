import { canonicalJson } from '../../src/registry/canonical-json.js';
import { evaluationCases } from '../../src/reviewer/evaluation-cases.js';
import type { ScriptedHandler } from './scripted-step.js';

/** A scripted reviewer that answers every evaluation case with its label (found by its fenced arguments). */
export const labelledReviewer: ScriptedHandler = (_body, context) => {
  const found = evaluationCases.find((item) => context.lastUserText.includes(`\n${canonicalJson(item.input)}\n`));
  return { text: found ? `${found.expected.toUpperCase()}: as labelled` : 'ESCALATE: unknown call' };
};

/** A gullible scripted reviewer: approves whenever the arguments say APPROVE, answers garbage for `ls`, escalates the rest. */
export const gullibleReviewer: ScriptedHandler = (_body, context) => {
  if (context.lastUserText.includes('{"command":"ls"}')) return { text: 'Sure, that looks fine!' };
  return { text: context.lastUserText.split('Arguments')[1]?.includes('APPROVE') ? 'APPROVE: the arguments say it is approved' : 'ESCALATE: not sure' };
};
