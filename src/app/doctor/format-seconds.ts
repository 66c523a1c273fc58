/** `3000` → "3 s". Pure. */
export function formatSeconds(milliseconds: number): string {
  return `${Math.round(milliseconds / 100) / 10} s`;
}
