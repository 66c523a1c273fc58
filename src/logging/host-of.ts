/** The host of a URL, or a neutral phrase for one that does not parse (never the text itself: it may hold a secret). */
export function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return 'the configured address';
  }
}
