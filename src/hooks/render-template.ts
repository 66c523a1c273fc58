import { readPath, valueText } from './read-path.js';

/** A rendered template: its text, the paths the body did not have, and whether the text was cut to the cap. */
export type RenderedTemplate = { readonly text: string; readonly missing: readonly string[]; readonly cut: boolean };

/** Largest rendered prompt: longer text is cut with a note. */
export const maxPromptChars = 16 * 1024;

// Only `{{path}}` with path characters: `{{#section}}`, `{{>partial}}`, `{{! comment}}` stay literal text.
const placeholder = /\{\{\s*([A-Za-z0-9_-]+(?:\.[A-Za-z0-9_-]+)*)\s*\}\}/g;

/**
 * Renders a logic-less Mustache-style template over a JSON body: each `{{a.b.c}}` becomes the value's text. Values
 * are inserted once and never read as template again (a `{{` inside a value stays text); there are no sections,
 * partials, lambdas or escapes. A missing path renders empty and is reported. Pure.
 */
export function renderTemplate(template: string, body: unknown, options: { readonly maxChars?: number } = {}): RenderedTemplate {
  const missing: string[] = [];
  const text = template.replace(placeholder, (_whole, path: string) => {
    const value = readPath(body, path);
    if (value === undefined && !missing.includes(path)) missing.push(path);
    return valueText(value);
  });
  const maxChars = options.maxChars ?? maxPromptChars;
  if (text.length <= maxChars) return { text, missing, cut: false };
  return { text: `${text.slice(0, maxChars)}\n[Cut here: ${text.length - maxChars} more characters of the rendered hook prompt were not kept.]`, missing, cut: true };
}
