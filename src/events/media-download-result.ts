/** Where a channel writes a downloaded file, and the most it may write. */
export type MediaDestination = {
  readonly path: string;
  readonly maxBytes: number;
  readonly signal?: AbortSignal;
};

/** A file streamed to disk, or why not (`tooLarge`: over `maxBytes`, by the platform's word or while reading). */
export type MediaDownloadResult =
  /** `fileName`: the name the platform gave the file, when the reference had none. */
  | { readonly ok: true; readonly bytes: number; readonly fileName?: string }
  | { readonly ok: false; readonly error: string; readonly tooLarge?: boolean };
