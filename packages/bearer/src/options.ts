/** Options of `bearer()`, under the reference's names. */
export interface BearerOptions {
  /**
   * In the reference, refuses unsigned (raw) Bearer tokens. Latchkey reads Bearer tokens in
   * core, signed or raw, so the plugin cannot narrow that: `true` is refused at start-up
   * rather than silently ignored.
   * @default false
   */
  requireSignature?: boolean | undefined;
}

/** Checks the options once, when the plugin is made. */
export function resolveBearerOptions(options: BearerOptions = {}): BearerOptions {
  if (options.requireSignature) {
    // A security option must not be dropped quietly: a ported config that relies on it
    // would accept raw tokens without anyone noticing.
    throw new TypeError(
      "bearer({ requireSignature: true }) is not supported: Latchkey core reads `Authorization: Bearer` " +
        "tokens itself, signed or raw, and this plugin only adds the set-auth-token header.",
    );
  }
  return options;
}
