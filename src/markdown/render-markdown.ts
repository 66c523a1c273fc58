import type { List, ListItem, Nodes, PhrasingContent, Root, RootContent, Table } from 'mdast';

/** How one channel writes each kind of Markdown node; `renderMarkdown` walks the tree and calls it. */
export type MarkdownStyle = {
  /** Escapes plain text for the channel (HTML entities on Telegram, nothing on plain text). */
  readonly text: (value: string) => string;
  readonly strong: (inner: string) => string;
  readonly emphasis: (inner: string) => string;
  readonly strikethrough: (inner: string) => string;
  readonly inlineCode: (value: string) => string;
  readonly codeBlock: (value: string, language: string | undefined) => string;
  /** A link; `label` is rendered already, `url` is raw. */
  readonly link: (label: string, url: string) => string;
  readonly heading: (inner: string) => string;
  readonly quote: (inner: string) => string;
};

/** What a block is rendered inside: bold already (a heading), a quote already, how deep in lists. */
type Context = { readonly inBold: boolean; readonly inQuote: boolean; readonly depth: number };

const top: Context = { inBold: false, inQuote: false, depth: 0 };

/** Renders a parsed answer with a channel's style: blocks apart by a blank line, list items on their own lines. Pure. */
export function renderMarkdown(tree: Root, style: MarkdownStyle): string {
  return blocks(tree.children, style, top).trim();
}

function blocks(nodes: readonly RootContent[], style: MarkdownStyle, context: Context, separator = '\n\n'): string {
  return nodes
    .map((node) => block(node, style, context))
    .filter((text) => text !== '')
    .join(separator);
}

function block(node: RootContent, style: MarkdownStyle, context: Context): string {
  switch (node.type) {
    case 'paragraph':
      return inline(node.children, style, context);
    case 'heading':
      return style.heading(inline(node.children, style, { ...context, inBold: true }));
    case 'blockquote': {
      const inner = blocks(node.children, style, { ...context, inQuote: true }, '\n');
      // Quotes do not nest in Telegram: an inner quote is its text.
      return context.inQuote ? inner : style.quote(inner);
    }
    case 'list':
      return list(node, style, context);
    case 'code':
      return style.codeBlock(node.value, node.lang ?? undefined);
    case 'thematicBreak':
      return style.text('———');
    case 'table':
      return table(node, style, context);
    case 'html':
      return style.text(node.value);
    case 'definition':
    case 'yaml':
      return '';
    default:
      return 'children' in node ? blocks(node.children as RootContent[], style, context) : style.text(plainValue(node));
  }
}

function list(node: List, style: MarkdownStyle, context: Context): string {
  const indent = '  '.repeat(context.depth);
  return node.children.map((item, index) => `${indent}${marker(node, item, index)} ${listItem(item, style, context)}`).join('\n');
}

function marker(node: List, item: ListItem, index: number): string {
  if (item.checked === true) return '☑';
  if (item.checked === false) return '☐';
  return node.ordered ? `${(node.start ?? 1) + index}.` : '•';
}

function listItem(item: ListItem, style: MarkdownStyle, context: Context): string {
  const inner = { ...context, depth: context.depth + 1 };
  return item.children
    .map((child) => (child.type === 'list' ? `\n${list(child, style, inner)}` : block(child, style, inner)))
    .join('\n')
    .replace(/\n\n/g, '\n');
}

function table(node: Table, style: MarkdownStyle, context: Context): string {
  return node.children.map((row) => row.children.map((cell) => inline(cell.children, style, context).trim()).join(' | ')).join('\n');
}

function inline(nodes: readonly PhrasingContent[], style: MarkdownStyle, context: Context): string {
  return nodes.map((node) => phrasing(node, style, context)).join('');
}

function phrasing(node: PhrasingContent, style: MarkdownStyle, context: Context): string {
  switch (node.type) {
    case 'text':
      return style.text(node.value);
    case 'strong': {
      const inner = inline(node.children, style, { ...context, inBold: true });
      return context.inBold ? inner : style.strong(inner);
    }
    case 'emphasis':
      return style.emphasis(inline(node.children, style, context));
    case 'delete':
      return style.strikethrough(inline(node.children, style, context));
    case 'inlineCode':
      return style.inlineCode(node.value);
    case 'break':
      return '\n';
    case 'link':
      return style.link(inline(node.children, style, context), node.url);
    case 'image':
      return node.alt ? `${style.text(node.alt)} (${style.text(node.url)})` : style.text(node.url);
    case 'html':
      return style.text(node.value);
    case 'footnoteReference':
      return style.text(`[^${node.identifier}]`);
    default:
      return 'children' in node ? inline(node.children as PhrasingContent[], style, context) : style.text(plainValue(node));
  }
}

function plainValue(node: Nodes): string {
  return 'value' in node && typeof node.value === 'string' ? node.value : '';
}
