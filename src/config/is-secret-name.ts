/** Names whose values are secrets: never logged, never echoed in errors, masked in audit entries. */
const secretName = /(key|token|secret|password|passwd|credential|auth)/i;

/** True when a field or flag name says its value is a secret. */
export function isSecretName(name: string): boolean {
  return secretName.test(name);
}
