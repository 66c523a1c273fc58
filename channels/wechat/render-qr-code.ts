/** A QR renderer for terminals, when one is installed. */
type TerminalQrRenderer = { toString(text: string, options: { type: 'terminal'; small: boolean }): Promise<string> };

/**
 * Draws a QR code for the terminal with the `qrcode` package that wechaty's dependency tree installs
 * (it is not a direct dependency, so it is optional); undefined when it is missing or fails.
 */
export async function renderQrCode(value: string): Promise<string | undefined> {
  // A name in a variable keeps TypeScript from requiring its types: the package has none here.
  const packageName = 'qrcode';
  try {
    const loaded = (await import(packageName)) as { default?: Partial<TerminalQrRenderer> };
    const renderer = loaded.default;
    return typeof renderer?.toString === 'function' ? await (renderer as TerminalQrRenderer).toString(value, { type: 'terminal', small: true }) : undefined;
  } catch {
    return undefined;
  }
}
