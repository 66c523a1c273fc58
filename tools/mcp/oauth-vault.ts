import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { OAuthDiscoveryState, StoredOAuthClientInformation, StoredOAuthTokens } from '@modelcontextprotocol/client';
import { openSealedJson, type SealedJson, sealJson } from './seal-json.js';

/** Everything OAuth keeps for one MCP server between runs; tokens carry the time they expire. */
export type OAuthVaultEntry = {
  readonly clientInformation?: StoredOAuthClientInformation;
  readonly tokens?: StoredOAuthTokens;
  /** Milliseconds since the epoch when the access token expires (from `expires_in` when it was saved). */
  readonly expiresAt?: number;
  readonly codeVerifier?: string;
  /** The `state` of the authorization link out now: the callback that brings it back belongs to this server. */
  readonly state?: string;
  readonly discoveryState?: OAuthDiscoveryState;
};

/** One server's OAuth state, encrypted at rest (AES-256-GCM) in `<dataDir>/mcp-oauth/<server>.json`, mode 0600. */
export type OAuthVault = {
  read(): OAuthVaultEntry;
  update(change: (entry: OAuthVaultEntry) => OAuthVaultEntry): void;
  /** Why the stored state could not be read (a changed key), once; the state then starts empty. */
  readonly problem: () => string | undefined;
};

/** Opens the vault of one server; the file is read once and written on every change (never when `readOnly`). */
export function createOAuthVault(input: { readonly dataDir: string; readonly server: string; readonly secretKey: string; readonly readOnly?: boolean }): OAuthVault {
  const folder = join(input.dataDir, 'mcp-oauth');
  const file = join(folder, `${input.server}.json`);
  let problem: string | undefined;
  let entry: OAuthVaultEntry = {};
  try {
    const opened = openSealedJson(input.secretKey, JSON.parse(readFileSync(file, 'utf8')) as SealedJson);
    if (opened.ok) entry = opened.value as OAuthVaultEntry;
    else problem = `the stored OAuth state of ${input.server} was dropped: ${opened.error}`;
  } catch {
    // No file yet: nothing stored.
  }
  return {
    read: () => entry,
    update(change) {
      entry = change(entry);
      if (input.readOnly === true) return;
      mkdirSync(folder, { recursive: true, mode: 0o700 });
      const temporary = `${file}.${process.pid}.tmp`;
      writeFileSync(temporary, JSON.stringify(sealJson(input.secretKey, entry)), { mode: 0o600 });
      renameSync(temporary, file);
    },
    problem: () => problem,
  };
}
