import type { Nodes } from 'mdast';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { gfmFromMarkdown } from 'mdast-util-gfm';
import { gfm } from 'micromark-extension-gfm';
import { describe, expect, it } from 'vitest';
import { parseMarkdown } from '../../../src/markdown/parse-markdown.js';

/** The tree without source positions, which the plain-line shortcut does not record and no renderer reads. */
function withoutPositions(node: Nodes): unknown {
  const { position: _position, ...rest } = node as Nodes & { position?: unknown };
  return 'children' in node ? { ...rest, children: node.children.map((child) => withoutPositions(child as Nodes)) } : rest;
}

const byTheParser = (text: string) => withoutPositions(fromMarkdown(text, { extensions: [gfm()], mdastExtensions: [gfmFromMarkdown()] }));

/** A small deterministic generator, so a failure names a reproducible input. */
function createRandom(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state / 2_147_483_648;
  };
}

// Every character that can start a Markdown construct, beside plain letters, digits and punctuation.
// `*` is left out: intraword stars are deliberately read differently (see the 2*3*4 test in render.test).
const pieces = ['a', 'Z', 'é', '字', '7', '0', ' ', '  ', '    ', '.', ',', '?', ':', ';', '(', ')', '"', "'", '-', '+', '=', '>', '<', '#', '_', '~', '`', '[', ']', '!', '&', '|', '@', '\\', '\t', '\n', '\u00a0', 'www.', 'http://', 'x.io', '1.', '2)', '&amp;', '---', '\u0000'];

describe('parseMarkdown', () => {
  it('reads one plain line exactly as the parser does, without running the parser', () => {
    for (const line of ['Sure, I will remind you at 5 pm tomorrow. Anything else?', 'r0-u100002-m0', 'Done (3 of 4) — 20% left; ok?', '你好，世界', 'ends with spaces   ', 'ends with a newline\n']) {
      expect(withoutPositions(parseMarkdown(line))).toEqual(byTheParser(line));
    }
  });

  it('gives the same tree as the parser for 2,000 generated strings full of syntax characters', () => {
    const random = createRandom(13);
    const mismatches: string[] = [];
    for (let index = 0; index < 2000; index += 1) {
      const length = 1 + Math.floor(random() * 8);
      const text = Array.from({ length }, () => pieces[Math.floor(random() * pieces.length)] ?? '').join('');
      if (JSON.stringify(withoutPositions(parseMarkdown(text))) !== JSON.stringify(byTheParser(text))) mismatches.push(JSON.stringify(text));
    }
    expect(mismatches.slice(0, 10)).toEqual([]);
  });
});
