import { EchoError } from '../errors/echo-error.js';

/** Ends an exhaustive switch: a new union member that is not handled fails type-checking here. */
export function assertNever(value: never, what: string): never {
  throw new EchoError('unhandled-variant', `Unhandled ${what}: ${JSON.stringify(value)}`);
}
