import type { Call } from "./result.js";

/**
 * A client plugin: methods for a server plugin's routes, built on the client's `Call`.
 * Nested groups merge with the core ones (`signIn: { magicLink }` joins `signIn.email`).
 *
 * @example
 * const magicLinkClient = () => ({
 *   id: "magic-link",
 *   methods: (call: Call) => ({
 *     signIn: { magicLink: (body: { email: string }) => call<{ status: boolean }>("/sign-in/magic-link", { method: "POST", body }) },
 *   }),
 * }) satisfies ClientPlugin;
 */
export interface ClientPlugin<Methods extends object = object> {
  /** Unique id, usually the server plugin's. */
  id: string;
  /** The methods the client gains. */
  methods?: (call: Call) => Methods;
}

// Any function: `never[]` parameters accept every parameter list.
type Leaf = (...args: never[]) => unknown;

type UnionToIntersection<U> = (U extends unknown ? (arg: U) => void : never) extends (arg: infer I) => void
  ? I
  : never;

/** `B` laid over `A`: nested groups merge, a method of `B` replaces the same method of `A`. */
export type Merge<A, B> = {
  [K in keyof A | keyof B]: K extends keyof B
    ? K extends keyof A
      ? A[K] extends Leaf
        ? B[K]
        : B[K] extends Leaf
          ? B[K]
          : Merge<A[K], B[K]>
      : B[K]
    : K extends keyof A
      ? A[K]
      : never;
};

/** The client type with each plugin's methods (one record per plugin) laid over it, in order. */
export type WithPlugins<C, M extends readonly object[]> = M extends readonly [
  infer Head,
  ...infer Rest extends readonly object[],
]
  ? WithPlugins<Merge<C, Head>, Rest>
  : number extends M["length"]
    ? C & UnionToIntersection<M[number]>
    : C;

/** The plugins list, one plugin per methods record: lets TypeScript infer each plugin's methods. */
export type PluginList<M extends readonly object[]> = { [K in keyof M]: ClientPlugin<M[K]> };

const isGroup = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * Lays a plugin's methods over the client. A plugin may replace a core method (a Generic OAuth
 * client owning `signIn.oauth2`), but two plugins defining one method is a configuration error.
 */
export function mergeMethods(
  target: Record<string, unknown>,
  source: Record<string, unknown>,
  owners: Map<string, string>,
  pluginId: string,
  prefix = "",
): void {
  for (const [key, value] of Object.entries(source)) {
    if (key === "__proto__" || key === "constructor" || key === "prototype") continue;
    const path = `${prefix}${key}`;
    const current = target[key];
    if (isGroup(value) && (isGroup(current) || current === undefined)) {
      // Copy, then descend: every method gets an owner, so two plugins cannot share one.
      target[key] = { ...(current as Record<string, unknown> | undefined) };
      mergeMethods(target[key] as Record<string, unknown>, value, owners, pluginId, `${path}.`);
      continue;
    }
    if (current !== undefined && isGroup(current) !== isGroup(value)) {
      throw new TypeError(
        `Client plugin "${pluginId}" defines "${path}", which the client already uses as a ${isGroup(current) ? "group" : "method"}.`,
      );
    }
    const owner = owners.get(path);
    if (owner && owner !== pluginId) {
      throw new TypeError(`Client plugins "${owner}" and "${pluginId}" both define "${path}".`);
    }
    owners.set(path, pluginId);
    target[key] = value;
  }
}
