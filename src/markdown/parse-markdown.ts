import type { Emphasis, Nodes, Parent, PhrasingContent, Root, Text } from 'mdast';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { gfmFromMarkdown } from 'mdast-util-gfm';
import { gfm } from 'micromark-extension-gfm';

const alphanumeric = /[\p{L}\p{N}]/u;

// Built once: building the GFM extensions for every answer cost more than parsing a short one.
const syntaxExtensions = [gfm()];
const treeExtensions = [gfmFromMarkdown()];

/**
 * One line of text that no Markdown construct can start in: no character that opens inline syntax
 * (escapes, code, emphasis, strikethrough, links, HTML, entities, tables), nothing an autolink is made
 * of, and no list, heading or quote marker or indentation at its start. Such a line parses to one
 * paragraph of itself, so the parser is skipped (most short chat answers are like this).
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters (newlines, tabs, NUL) all leave the fast path.
const inlineSyntax = /[\x00-\x1f\\`*_~[\]<>&!|#@]|www\.|:\/\//i;
const blockStart = /^(?:\s|[-+=>]|\d{1,9}[.)])/;

/**
 * Parses the Markdown a model writes (CommonMark with GitHub's tables, strikethrough, task lists and
 * autolinks) into an mdast tree, once, for every channel's renderer and the splitter. One deliberate
 * departure: a `*` emphasis glued to letters or digits on both outer sides (`2*3*4 = 24`) is text,
 * not emphasis, because models write arithmetic far more often than emphasis inside a word. Pure.
 */
export function parseMarkdown(markdown: string): Root {
  const source = markdown.replace(/\r\n?/g, '\n');
  // A paragraph's trailing spaces and the newlines after it are not part of its text.
  const text = source.replace(/[ \n]+$/, '');
  if (text !== '' && !inlineSyntax.test(text) && !blockStart.test(text)) return { type: 'root', children: [{ type: 'paragraph', children: [{ type: 'text', value: text }] }] };
  const tree = fromMarkdown(source, { extensions: syntaxExtensions, mdastExtensions: treeExtensions });
  literalIntrawordEmphasis(tree, source);
  return tree;
}

function literalIntrawordEmphasis(node: Nodes, source: string): void {
  if (!('children' in node)) return;
  const parent = node as Parent;
  parent.children = parent.children.flatMap((child) => (isIntrawordStar(child, source) ? asLiteral(child as Emphasis, source) : [child]));
  for (const child of parent.children) literalIntrawordEmphasis(child as Nodes, source);
  mergeAdjacentText(parent);
}

function isIntrawordStar(node: { type: string; position?: { start: { offset?: number }; end: { offset?: number } } }, source: string): boolean {
  if (node.type !== 'emphasis') return false;
  const start = node.position?.start.offset;
  const end = node.position?.end.offset;
  if (start === undefined || end === undefined || source[start] !== '*') return false;
  return alphanumeric.test(source[start - 1] ?? '') && alphanumeric.test(source[end] ?? '');
}

function asLiteral(node: Emphasis, source: string): PhrasingContent[] {
  const text = (value: string): Text => ({ type: 'text', value });
  return [text('*'), ...node.children, text('*')].flatMap((child) => (child.type === 'emphasis' && isIntrawordStar(child, source) ? asLiteral(child, source) : [child]));
}

function mergeAdjacentText(parent: Parent): void {
  const merged: Parent['children'] = [];
  for (const child of parent.children) {
    const previous = merged.at(-1);
    if (previous?.type === 'text' && child.type === 'text') merged[merged.length - 1] = { type: 'text', value: previous.value + child.value };
    else merged.push(child);
  }
  parent.children = merged;
}
