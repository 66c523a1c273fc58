/** The one error class for bugs and unrecoverable conditions. Expected failures are values, not this. */
export class EchoError extends Error {
  /** A stable machine-readable code, e.g. `config-invalid`. */
  readonly code: string;

  constructor(code: string, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'EchoError';
    this.code = code;
  }
}

/** Reads a readable message out of anything thrown. */
export function describeError(error: unknown): string {
  if (error instanceof Error) return error.message;
  return String(error);
}
