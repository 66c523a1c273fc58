/** Who a hook's turns are: the tool scope, job and billing id `hook:<name>` (a hook has its own tools and budget). Pure. */
export function hookSubject(hookName: string): string {
  return `hook:${hookName}`;
}
