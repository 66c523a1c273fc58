import { createPrivateKey } from 'node:crypto';

/** The JWS algorithms echo-agent signs private_key_jwt client assertions with (RFC 7523), by key type. */
export type PrivateKeyJwtAlgorithm = 'RS256' | 'PS256' | 'ES256' | 'ES384' | 'ES512' | 'EdDSA';

/** The algorithm for each elliptic curve node names (the JWS one is fixed by the curve, RFC 7518 §3.4). */
const curveAlgorithms: Readonly<Record<string, PrivateKeyJwtAlgorithm>> = { prime256v1: 'ES256', secp384r1: 'ES384', secp521r1: 'ES512' };

/**
 * The algorithm a PEM private key signs with: `configured` when given, else the one its type implies (RSA: RS256, an
 * EC key: its curve's ES*, Ed25519: EdDSA). A key node cannot read, or of another type, is a sentence for the operator.
 */
export function privateKeyJwtAlgorithm(input: { readonly privateKey: string; readonly configured?: PrivateKeyJwtAlgorithm }):
  | { readonly ok: true; readonly algorithm: PrivateKeyJwtAlgorithm }
  | { readonly ok: false; readonly error: string } {
  let key: ReturnType<typeof createPrivateKey>;
  try {
    key = createPrivateKey(input.privateKey);
  } catch (error) {
    return { ok: false, error: `oauth.privateKey is not a PEM private key node can read (${error instanceof Error ? error.message : String(error)})` };
  }
  if (input.configured !== undefined) return { ok: true, algorithm: input.configured };
  const type = key.asymmetricKeyType;
  if (type === 'rsa') return { ok: true, algorithm: 'RS256' };
  if (type === 'rsa-pss') return { ok: true, algorithm: 'PS256' };
  if (type === 'ed25519') return { ok: true, algorithm: 'EdDSA' };
  const curve = type === 'ec' ? key.asymmetricKeyDetails?.namedCurve : undefined;
  const algorithm = curve === undefined ? undefined : curveAlgorithms[curve];
  if (algorithm !== undefined) return { ok: true, algorithm };
  return { ok: false, error: `oauth.privateKey is a ${type ?? 'unknown'}${curve ? ` (${curve})` : ''} key; private_key_jwt takes RSA, EC P-256/384/521 or Ed25519 keys` };
}
