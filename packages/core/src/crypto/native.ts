/** The parts of node:crypto core may use when the runtime has them. */
export interface NativeCrypto {
  scrypt?: unknown;
  createHmac?: (algorithm: string, key: Uint8Array) => {
    update(data: Uint8Array): { digest(): Uint8Array };
  };
}

let cached: NativeCrypto | null | undefined;

/**
 * node:crypto where the runtime provides it (Node ≥ 20.16, Bun, Deno 2), else null.
 * `process.getBuiltinModule` reaches it without a static `node:` import, which would break
 * bundling for edge runtimes. Looked up once, lazily.
 */
export function nativeCrypto(): NativeCrypto | null {
  if (cached !== undefined) return cached;
  const host = globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } };
  cached = (host.process?.getBuiltinModule?.("node:crypto") as NativeCrypto | undefined) ?? null;
  return cached;
}
