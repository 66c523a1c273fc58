/** The session cookie's name: with `__Host-` (no Domain, Path=/, Secure) when served over https. */
export function sessionCookieName(secure: boolean): string {
  return secure ? '__Host-echo_console' : 'echo_console';
}

/** Reads one cookie from a Cookie header; undefined when absent. Pure. */
export function readCookie(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const separator = part.indexOf('=');
    if (separator < 0) continue;
    if (part.slice(0, separator).trim() === name) return part.slice(separator + 1).trim();
  }
  return undefined;
}

/** The Set-Cookie value of a session: HttpOnly, SameSite=Strict, Secure over https; an empty value with Max-Age=0 clears it. Pure. */
export function sessionCookie(input: { readonly value: string; readonly secure: boolean; readonly maxAgeSeconds: number }): string {
  return [`${sessionCookieName(input.secure)}=${input.value}`, 'Path=/', `Max-Age=${Math.max(0, Math.floor(input.maxAgeSeconds))}`, 'HttpOnly', 'SameSite=Strict', ...(input.secure ? ['Secure'] : [])].join('; ');
}
