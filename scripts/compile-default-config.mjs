// Compiles config/default.yaml into dist/config/default.json (or <out>/config/default.json with an argument: the bench's dist-bench) (the hash of its text and its value), so an agent
// configured by environment variables alone starts without loading the YAML parser. The loader checks the hash:
// an edited default.yaml is parsed as YAML until the next build.
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parse } from 'yaml';

const root = new URL('..', import.meta.url).pathname;
const text = readFileSync(join(root, 'config', 'default.yaml'), 'utf8');
const value = parse(text) ?? {};
const encoded = JSON.stringify({ sha256: createHash('sha256').update(text).digest('hex'), value });
// JSON must carry the value whole (no dates, no undefined): otherwise the loader would differ from the parser.
if (JSON.stringify(JSON.parse(encoded).value) !== JSON.stringify(value)) throw new Error('config/default.yaml does not survive JSON; not compiled');
const out = resolve(root, process.argv[2] ?? 'dist', 'config');
mkdirSync(out, { recursive: true });
writeFileSync(join(out, 'default.json'), `${encoded}\n`);
