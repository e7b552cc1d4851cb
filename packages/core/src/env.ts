/** Reads an environment variable on runtimes that have one (Node, Bun, Deno); undefined elsewhere. */
export function env(name: string): string | undefined {
  const proc = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process;
  const value = proc?.env?.[name];
  return value === "" ? undefined : value;
}

/** `NODE_ENV === "production"`. */
export const isProduction = (): boolean => env("NODE_ENV") === "production";

/** Test or development mode, where the reference relaxes a few defaults. */
export const isDevelopmentOrTest = (): boolean => {
  const mode = env("NODE_ENV");
  return mode === "development" || mode === "test" || !!env("TEST");
};

/** `NODE_ENV=test` or `TEST` set: origin checks default to off, as in the reference. */
export const isTest = (): boolean => env("NODE_ENV") === "test" || !!env("TEST");
