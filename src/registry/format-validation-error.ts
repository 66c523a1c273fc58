import type { z } from 'zod';

/** One line the model can act on: `Invalid parameters: action: expected one of remember|recall|forget`. */
export function formatValidationError(error: z.ZodError): string {
  const parts = error.issues.map((issue) => {
    const path = issue.path.map(String).join('.');
    const message = issue.code === 'invalid_value' && 'values' in issue ? `expected one of ${issue.values.map(String).join('|')}` : issue.message;
    return path === '' ? message : `${path}: ${message}`;
  });
  return `Invalid parameters: ${parts.join('; ')}`;
}
