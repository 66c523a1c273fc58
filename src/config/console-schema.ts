import { z } from 'zod';
import { flexibleBoolean, optionalText } from './comma-list.js';

/** The `console` section: the web console on the gateway (approvals, activity, usage, schedules, health), off by default. */
export const consoleSchema = z.strictObject({
  enabled: flexibleBoolean
    .default(false)
    .describe('Serve the web console at /console on the gateway (server mode); people log in with a one-time link sent by the /console chat command. Off: nothing of it is loaded.'),
  publicUrl: optionalText
    .pipe(z.url().optional())
    .refine((url) => url === undefined || url.startsWith('https://') || url.startsWith('http://'), 'an http:// or https:// URL, e.g. https://echo.example.com')
    .describe('The gateway as the browser reaches it (behind a proxy), the base of login links: https://echo.example.com. Default http://<gateway.host>:<gateway.port>. With https the session cookie is Secure.'),
  sessionHours: z.coerce.number().positive().max(720).default(12).describe('How long a console session lasts after the link was opened.'),
});

/** How long a console login link works: the chat answer says it, the link book enforces it. */
export const consoleLinkMinutes = 10;

/** The `console` section as validated. */
export type ConsoleConfig = z.infer<typeof consoleSchema>;
