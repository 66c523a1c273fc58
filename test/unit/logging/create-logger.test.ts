import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { EchoError } from '../../../src/errors/echo-error.js';
import { createLogger } from '../../../src/logging/create-logger.js';
import { traceContext } from '../../../src/logging/trace-context.js';

const secret = 'sk-live-SECRET-123456';

async function capture(options: { secrets?: string[]; level?: string } = {}) {
  const chunks: string[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      chunks.push(chunk.toString('utf8'));
      done();
    },
  });
  const logger = await createLogger({ level: options.level ?? 'info', pretty: false, destination, secrets: options.secrets });
  return {
    logger,
    text: () => chunks.join(''),
    lines: () =>
      chunks
        .join('')
        .split('\n')
        .filter((line) => line !== '')
        .map((line) => JSON.parse(line) as Record<string, unknown>),
  };
}

describe('createLogger: known secret values', () => {
  it('never writes a secret found in the message text', async () => {
    const { logger, text, lines } = await capture({ secrets: [secret] });
    logger.info(`calling with ${secret} now`);
    logger.warn('format %s and %o', secret, { key: secret });
    expect(text()).not.toContain(secret);
    expect(lines()[0]?.msg).toBe('calling with *** now');
  });

  it('never writes a secret hidden in nested fields or arrays', async () => {
    const { logger, text, lines } = await capture({ secrets: [secret] });
    logger.info({ request: { headers: { 'x-custom': `Bearer ${secret}` }, list: ['a', { deep: { deeper: secret } }] } }, 'request');
    expect(text()).not.toContain(secret);
    expect(lines()[0]).toMatchObject({ request: { headers: { 'x-custom': 'Bearer ***' }, list: ['a', { deep: { deeper: '***' } }] }, msg: 'request' });
  });

  it('never writes a secret from an error message, stack or cause, and keeps the error type', async () => {
    const { logger, text, lines } = await capture({ secrets: [secret] });
    const cause = new Error(`upstream said ${secret}`);
    logger.error({ err: new EchoError('model-auth', `key ${secret} was refused`, { cause }) }, 'failed');
    expect(text()).not.toContain(secret);
    expect(lines()[0]).toMatchObject({ err: { type: 'EchoError', message: 'key *** was refused: upstream said ***', code: 'model-auth' }, msg: 'failed' });
    expect((lines()[0]?.err as { stack?: string } | undefined)?.stack).toContain('key *** was refused');
  });

  it('never writes a secret from an error given as the only argument', async () => {
    const { logger, text } = await capture({ secrets: [secret] });
    logger.error(new Error(`boom ${secret}`));
    expect(text()).not.toContain(secret);
    expect(text()).toContain('boom ***');
  });

  it('does not throw when a field holds both a secret and a secret-looking flag', async () => {
    const { logger, text, lines } = await capture({ secrets: [secret] });
    expect(() => logger.info({ command: `deploy --token=${secret}` }, 'ran')).not.toThrow();
    expect(text()).not.toContain(secret);
    expect(lines()[0]).toMatchObject({ command: 'deploy --token=***', msg: 'ran' });
  });

  it('does not throw on a circular object, and still masks it', async () => {
    const { logger, text, lines } = await capture({ secrets: [secret] });
    const node: Record<string, unknown> = { name: 'loop', value: secret };
    node.self = node;
    expect(() => logger.info({ node }, 'circular')).not.toThrow();
    expect(text()).not.toContain(secret);
    expect(lines()[0]).toMatchObject({ node: { name: 'loop', value: '***' }, msg: 'circular' });
  });

  it('masks an object that is logged through its JSON form (a URL)', async () => {
    const { logger, text } = await capture({ secrets: [secret] });
    logger.info({ url: new URL(`https://api.example.com/v1?key=${secret}`) }, 'fetch');
    expect(text()).not.toContain(secret);
    expect(text()).toContain('api.example.com');
  });

  it('masks a secret with characters JSON escapes', async () => {
    const quoted = 'pa"ss\\word-99';
    const { logger, text, lines } = await capture({ secrets: [quoted] });
    logger.info({ value: `x ${quoted} y` }, `msg ${quoted}`);
    expect(lines()[0]).toMatchObject({ value: 'x *** y', msg: 'msg ***' });
    expect(text()).not.toContain(JSON.stringify(quoted).slice(1, -1));
  });

  it('leaves lines without secrets as they are, and does not change the logged object', async () => {
    const { logger, lines } = await capture({ secrets: [secret] });
    const fields = { user: 'bob', count: 3, nested: { ok: true }, value: secret };
    logger.info(fields, 'plain');
    expect(lines()[0]).toMatchObject({ user: 'bob', count: 3, nested: { ok: true }, value: '***' });
    expect(fields.value).toBe(secret);
  });

  it('masks every configured secret', async () => {
    const { logger, text } = await capture({ secrets: ['first-secret', 'second-secret'] });
    logger.info({ a: 'first-secret', b: ['second-secret'] }, 'first-secret and second-secret');
    expect(text()).not.toContain('first-secret');
    expect(text()).not.toContain('second-secret');
  });
});

describe('createLogger: redact paths', () => {
  it.each(['apiKey', 'token', 'secret', 'password', 'authorization', 'Authorization'])('redacts a top-level %s field', async (field) => {
    const { logger, lines } = await capture();
    logger.info({ [field]: 'visible-value', other: 'kept' }, 'x');
    expect(lines()[0]).toMatchObject({ [field]: '***', other: 'kept' });
  });

  it.each(['apiKey', 'token', 'secret', 'password', 'authorization'])('redacts a %s field one level down', async (field) => {
    const { logger, lines } = await capture();
    logger.info({ outer: { [field]: 'visible-value', other: 'kept' } }, 'x');
    expect(lines()[0]).toMatchObject({ outer: { [field]: '***', other: 'kept' } });
  });

  it('redacts request headers and the model key of a logged config', async () => {
    const { logger, text } = await capture();
    logger.info({ headers: { authorization: 'Bearer abc-visible' }, config: { model: { primary: { apiKey: 'cfg-visible' } } } }, 'x');
    expect(text()).not.toContain('abc-visible');
    expect(text()).not.toContain('cfg-visible');
  });

  it('respects the level', async () => {
    const { logger, lines } = await capture({ level: 'warn' });
    logger.info('hidden');
    logger.warn('shown');
    expect(lines().map((line) => line.msg)).toEqual(['shown']);
  });
});

describe('createLogger: trace ids', () => {
  it('adds the running turn’s trace id and session key to every line, and nothing outside a turn', async () => {
    const { logger, lines } = await capture();
    logger.info('before');
    await traceContext.run({ traceId: 'trace-42', sessionKey: 'telegram:1001' }, async () => {
      await Promise.resolve();
      logger.info('inside a turn');
    });
    logger.info('after');
    const [before, inside, after] = lines();
    expect(before?.traceId).toBeUndefined();
    expect(inside).toMatchObject({ traceId: 'trace-42', sessionKey: 'telegram:1001', msg: 'inside a turn' });
    expect(after?.traceId).toBeUndefined();
  });
});
