import { type DestinationStream, type Logger, pino } from 'pino';
import { maskSecretText } from './mask-secrets.js';
import { traceContext } from './trace-context.js';

/** Options for the process logger. */
export type LoggerOptions = {
  readonly level: string;
  /** Human-readable lines (a terminal is attached); JSON otherwise. */
  readonly pretty: boolean;
  /** Secret values from config, scrubbed from every line whatever field they hide in. */
  readonly secrets?: readonly string[];
  /** Where lines go; default stderr, so stdout stays for the terminal channel's answers. */
  readonly destination?: DestinationStream;
};

/** The logger type every module receives; child loggers carry traceId and component. */
export type { Logger };

const secretFields = ['apiKey', 'token', 'secret', 'password', 'authorization', 'Authorization'];
// Top-level fields and the same fields one level down (`{ headers: { authorization } }`).
const redactPaths = [...secretFields, ...secretFields.map((field) => `*.${field}`), 'config.model.primary.apiKey'];
const maxScrubDepth = 8;

/** Creates the pino logger: JSON to stderr, pretty when a terminal is attached, secrets redacted. */
export async function createLogger(options: LoggerOptions): Promise<Logger> {
  const secrets = options.secrets ?? [];
  const pinoOptions = {
    level: options.level,
    // Every line written while a turn runs carries its trace id, whichever module wrote it.
    mixin: () => traceContext.getStore() ?? {},
    redact: { paths: redactPaths, censor: '***' },
    hooks: {
      // Known secret values are scrubbed from the message text too, wherever a library put them.
      logMethod(this: Logger, args: unknown[], method: (...values: unknown[]) => void) {
        if (secrets.length > 0) {
          method.apply(
            this,
            args.map((argument) => scrub(argument, secrets, 0, new Set())),
          );
          return;
        }
        method.apply(this, args);
      },
    },
  };
  if (options.destination) return pino(pinoOptions, options.destination);
  if (options.pretty) {
    const { default: pretty } = await import('pino-pretty');
    return pino(pinoOptions, pretty({ destination: 2, sync: true, ignore: 'pid,hostname', translateTime: 'HH:MM:ss' }));
  }
  return pino(pinoOptions, pino.destination({ dest: 2, sync: false }));
}

/**
 * A copy of a log argument with secret values masked in every string, the original when nothing
 * changed. It walks the value instead of round-tripping it through JSON: masking JSON text could cut
 * a string open (and make the log call throw), and errors, whose message is not enumerable, would
 * keep their secrets.
 */
function scrub(value: unknown, secrets: readonly string[], depth: number, ancestors: Set<object>): unknown {
  if (typeof value === 'string') return maskSecretText(value, secrets);
  if (value === null || typeof value !== 'object' || depth > maxScrubDepth) return value;
  // Returning the original here would let the copy lead back into the unmasked value.
  if (ancestors.has(value)) return '[Circular]';
  ancestors.add(value);
  try {
    return scrubObject(value, secrets, depth, ancestors);
  } finally {
    ancestors.delete(value);
  }
}

function scrubObject(value: object, secrets: readonly string[], depth: number, ancestors: Set<object>): unknown {
  if (Array.isArray(value)) {
    const items = value.map((item) => scrub(item, secrets, depth + 1, ancestors));
    return items.some((item, index) => item !== value[index]) ? items : value;
  }
  const prototype: unknown = Object.getPrototypeOf(value);
  if (value instanceof Error || prototype === Object.prototype || prototype === null) {
    // Own properties with their descriptors: an error's message and stack are not enumerable, and the copy keeps its class.
    const descriptors = Object.getOwnPropertyDescriptors(value);
    let changed = false;
    for (const descriptor of Object.values(descriptors)) {
      if (!('value' in descriptor)) continue;
      const next = scrub(descriptor.value, secrets, depth + 1, ancestors);
      if (next !== descriptor.value) {
        descriptor.value = next;
        changed = true;
      }
    }
    return changed ? Object.create(prototype as object | null, descriptors) : value;
  }
  // Anything else (a URL, a Buffer, a class instance) is logged through its JSON form; mask that form if it shows a secret.
  let text: string | undefined;
  try {
    text = JSON.stringify(value);
  } catch {
    return value;
  }
  if (text === undefined || !secrets.some((secret) => secret.length > 0 && text.includes(secret))) return value;
  return scrub(JSON.parse(text), secrets, depth + 1, ancestors);
}
