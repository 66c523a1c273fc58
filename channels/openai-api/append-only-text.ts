/**
 * Turns drafts that replace each other into pieces that only append, as a stream of deltas must: a draft that extends
 * the current segment adds its new tail; one that does not (a new model call after a tool) starts a new paragraph.
 */
export type AppendOnlyText = {
  /** The pieces to send for the latest draft of the current segment. */
  draft(text: string): readonly string[];
  /** A message that stands on its own: sent whole, and the next draft starts after it. */
  message(text: string): readonly string[];
  /** Everything sent so far. */
  shown(): string;
};

/** Creates the delta tracker for one streamed response. */
export function createAppendOnlyText(): AppendOnlyText {
  let shown = '';
  let segmentStart = 0;
  const emit = (piece: string): string[] => {
    if (piece === '') return [];
    shown += piece;
    return [piece];
  };
  const separator = () => (shown === '' ? [] : emit('\n\n'));
  return {
    draft(text) {
      if (text === '') return [];
      const segment = shown.slice(segmentStart);
      if (segment !== '' && text.startsWith(segment)) return emit(text.slice(segment.length));
      const pieces = separator();
      segmentStart = shown.length;
      return [...pieces, ...emit(text)];
    },
    message(text) {
      const pieces = [...separator(), ...emit(text)];
      segmentStart = shown.length;
      return pieces;
    },
    shown: () => shown,
  };
}
