import { describe, expect, it } from 'vitest';
import { parseMarkdown } from '../../../src/markdown/parse-markdown.js';
import { renderPlainText } from '../../../src/markdown/render-plain-text.js';
import { splitMarkdown } from '../../../src/markdown/split-markdown.js';

const splitPlain = (markdown: string, limit: number) => splitMarkdown(parseMarkdown(markdown), (part) => renderPlainText(part).length <= limit).map(renderPlainText);

describe('splitMarkdown', () => {
  it('keeps an answer that fits whole', () => {
    expect(splitPlain('# Title\n\nshort', 100)).toEqual(['Title\n\nshort']);
  });

  it('keeps the numbers of an ordered list that is split between items', () => {
    const markdown = Array.from({ length: 6 }, (_, index) => `${index + 1}. step ${'s'.repeat(20)}`).join('\n');
    const parts = splitPlain(markdown, 70);
    expect(parts.join('\n')).toBe(Array.from({ length: 6 }, (_, index) => `${index + 1}. step ${'s'.repeat(20)}`).join('\n'));
    expect(parts.length).toBe(3);
  });

  it('puts whole paragraphs together while they fit', () => {
    const parts = splitPlain(['a'.repeat(30), 'b'.repeat(30), 'c'.repeat(30)].join('\n\n'), 70);
    expect(parts).toEqual([`${'a'.repeat(30)}\n\n${'b'.repeat(30)}`, 'c'.repeat(30)]);
  });
});
