/** Options of `bearer()`, under the reference's names. */
export interface BearerOptions {
  /**
   * Refuse unsigned (raw) Bearer tokens: only `token.sig`, as `set-auth-token` sends it,
   * authenticates (what core does without the plugin).
   * @default false
   */
  requireSignature?: boolean | undefined;
}

/** Checks the options once, when the plugin is made. */
export function resolveBearerOptions(options: BearerOptions = {}): BearerOptions {
  return { requireSignature: options.requireSignature ?? false };
}
