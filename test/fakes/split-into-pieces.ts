/** Splits text into up to `count` non-empty pieces on code-point boundaries, so streams arrive in parts. */
export function splitIntoPieces(text: string, count: number): string[] {
  const characters = Array.from(text);
  if (characters.length === 0) return [];
  const size = Math.max(1, Math.ceil(characters.length / count));
  const pieces: string[] = [];
  for (let start = 0; start < characters.length; start += size) {
    pieces.push(characters.slice(start, start + size).join(''));
  }
  return pieces;
}
