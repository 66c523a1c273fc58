/** Formats an ISO time as `HH:MM (zone)` in an IANA time zone, for cards and outcome lines whose readers may live elsewhere; an unknown zone gives the ISO text back. Pure. */
export function formatClock(iso: string, timezone: string): string {
  try {
    return `${new Intl.DateTimeFormat('en-GB', { timeZone: timezone, hour: '2-digit', minute: '2-digit' }).format(new Date(iso))} (${timezone})`;
  } catch {
    return iso;
  }
}
