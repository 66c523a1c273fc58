import { type DestinationStream, type Logger, pino } from 'pino';
import { maskSecretText } from './mask-secrets.js';

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

const redactPaths = ['*.apiKey', '*.token', '*.secret', '*.password', '*.authorization', '*.Authorization', 'headers.authorization', 'config.model.primary.apiKey'];

/** Creates the pino logger: JSON to stderr, pretty when a terminal is attached, secrets redacted. */
export async function createLogger(options: LoggerOptions): Promise<Logger> {
  const secrets = options.secrets ?? [];
  const pinoOptions = {
    level: options.level,
    redact: { paths: redactPaths, censor: '***' },
    hooks: {
      // Known secret values are scrubbed from the message text too, wherever a library put them.
      logMethod(this: Logger, args: unknown[], method: (...values: unknown[]) => void) {
        if (secrets.length > 0) {
          method.apply(
            this,
            args.map((argument) => (typeof argument === 'string' ? maskSecretText(argument, secrets) : scrubObject(argument, secrets))),
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

function scrubObject(value: unknown, secrets: readonly string[]): unknown {
  if (value === null || typeof value !== 'object') return value;
  const text = JSON.stringify(value);
  if (text === undefined || !secrets.some((secret) => text.includes(secret))) return value;
  return JSON.parse(maskSecretText(text, secrets));
}
