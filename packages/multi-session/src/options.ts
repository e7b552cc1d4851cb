/** Options of `multiSession()`, under the reference's names. */
export interface MultiSessionOptions {
  /**
   * How many sessions one browser may hold. A sign-in past the limit still signs in, but its
   * session gets no multi-session cookie, so it is not listed and cannot be switched back to.
   * @default 5
   */
  maximumSessions?: number | undefined;
}

/** `MultiSessionOptions` with every default applied. */
export interface ResolvedMultiSessionOptions {
  maximumSessions: number;
}

/** Applies the defaults once, when the plugin is made; a limit below 1 is a `TypeError`. */
export function resolveMultiSessionOptions(options: MultiSessionOptions = {}): ResolvedMultiSessionOptions {
  const maximumSessions = options.maximumSessions ?? 5;
  if (!Number.isInteger(maximumSessions) || maximumSessions < 1) {
    throw new TypeError("multiSession: maximumSessions must be a positive integer");
  }
  return { maximumSessions };
}
