import type { List, Nodes, Parent, Root } from 'mdast';
import { findTextCut } from './split-text.js';

/** Whether a candidate tree is small enough once rendered (each channel measures its own output). */
export type Fits = (part: Root) => boolean;

type Piece = { readonly node: Nodes; readonly index: number };

/**
 * Splits a parsed answer into trees that each fit one message, on node boundaries: whole blocks
 * while they fit, else a block's children (list items, quote paragraphs, table rows, inline runs),
 * else a text or code value at a paragraph break, line break, sentence end or space. Every part is a
 * whole tree, so a renderer never leaves a tag, an entity or a code block cut open. A node that
 * cannot be divided (an image, a rule) is sent whole even if it is longer. Pure.
 */
export function splitMarkdown(tree: Root, fits: Fits): Root[] {
  if (fits(tree)) return [tree];
  return pack(tree, fits as (node: Nodes) => boolean) as Root[];
}

function pack(node: Parent, fits: (node: Nodes) => boolean): Nodes[] {
  const pieces: Piece[] = [];
  node.children.forEach((child, index) => {
    const fitsAlone = (candidate: Nodes) => fits(withChildren(node, [{ node: candidate, index }]));
    if (fitsAlone(child)) pieces.push({ node: child, index });
    else for (const piece of divide(child, fitsAlone)) pieces.push({ node: piece, index });
  });
  const parts: Nodes[] = [];
  let current: Piece[] = [];
  for (const piece of pieces) {
    const candidate = [...current, piece];
    if (current.length === 0 || fits(withChildren(node, candidate))) {
      current = candidate;
      continue;
    }
    parts.push(withChildren(node, current));
    current = [piece];
  }
  if (current.length > 0) parts.push(withChildren(node, current));
  return parts;
}

function divide(node: Nodes, fits: (node: Nodes) => boolean): Nodes[] {
  if ('children' in node && node.children.length > 0) return pack(node, fits);
  if (node.type === 'text' || node.type === 'code' || node.type === 'inlineCode') return divideValue(node, fits);
  return [node];
}

type Valued = Extract<Nodes, { type: 'text' | 'code' | 'inlineCode' }>;

function divideValue(node: Valued, fits: (node: Nodes) => boolean): Nodes[] {
  // Code keeps its indentation; prose loses the white space at a cut.
  const exact = node.type !== 'text';
  const pieces: Nodes[] = [];
  const withValue = (value: string): Nodes => ({ ...node, value });
  let rest = node.value;
  while (rest !== '') {
    if (fits(withValue(rest))) {
      pieces.push(withValue(rest));
      break;
    }
    // The longest prefix that fits once rendered (escaping makes it shorter than the budget).
    let low = 1;
    let high = rest.length - 1;
    while (low < high) {
      const middle = Math.ceil((low + high) / 2);
      if (fits(withValue(rest.slice(0, middle)))) low = middle;
      else high = middle - 1;
    }
    const cut = findTextCut(rest, low);
    const head = rest.slice(0, cut);
    pieces.push(withValue(exact ? head.replace(/\n$/, '') : head.trimEnd()));
    rest = exact ? rest.slice(cut) : rest.slice(cut).trimStart();
  }
  return pieces;
}

/** A copy of `parent` with some of its children; an ordered list keeps the numbers of the items it holds. */
function withChildren(parent: Parent, pieces: readonly Piece[]): Nodes {
  const children = pieces.map((piece) => piece.node);
  if (parent.type === 'list') {
    const list = parent as List;
    return { ...list, children, ...(list.ordered ? { start: (list.start ?? 1) + (pieces[0]?.index ?? 0) } : {}) } as Nodes;
  }
  return { ...parent, children } as Nodes;
}
