import * as v from "valibot";
import { symmetricDecrypt, symmetricEncrypt } from "@latchkey/core";

/**
 * What replaces the `state` sent to the provider: the real state, and the stored flow data
 * (PKCE verifier, callback URL, ...) encrypted, so production can exchange the code without
 * the preview deployment's storage. Wire format shared with the reference.
 */
export interface StatePackage {
  state: string;
  /** The flow's stored state value (JSON), encrypted on its own. */
  stateCookie: string;
  isOAuthProxy: true;
}

const packageSchema = v.looseObject({
  state: v.pipe(v.string(), v.minLength(1)),
  stateCookie: v.pipe(v.string(), v.minLength(1)),
  isOAuthProxy: v.literal(true),
});

// The stored flow data as production needs it; the rest of the stored value passes through.
const flowSchema = v.looseObject({
  callbackURL: v.string(),
  codeVerifier: v.string(),
  errorURL: v.optional(v.string()),
  newUserURL: v.optional(v.string()),
  oauthState: v.optional(v.string()),
  requestSignUp: v.optional(v.boolean()),
  idTokenNonce: v.optional(v.string()),
});

/** The flow data carried inside a {@link StatePackage}. */
export type ProxiedFlow = v.InferOutput<typeof flowSchema>;

/** Encrypts the stored state value and wraps it with the state it belongs to. */
export async function sealStatePackage(key: string, state: string, storedValue: string): Promise<string> {
  const pack: StatePackage = {
    state,
    stateCookie: await symmetricEncrypt({ key, data: storedValue }),
    isOAuthProxy: true,
  };
  return symmetricEncrypt({ key, data: JSON.stringify(pack) });
}

const decryptJSON = async (key: string, data: string): Promise<unknown> =>
  JSON.parse(await symmetricDecrypt({ key, data })) as unknown;

/**
 * The package and flow a callback's `state` carries, or null when it is no proxy package
 * (an ordinary 32-character state, another secret's, or damaged): such callbacks are left to
 * the ordinary callback route, which then refuses what it cannot match.
 */
export async function openStatePackage(
  key: string,
  state: string,
): Promise<{ pack: StatePackage; flow: ProxiedFlow } | null> {
  try {
    const pack = v.safeParse(packageSchema, await decryptJSON(key, state));
    if (!pack.success) return null;
    const flow = v.safeParse(flowSchema, await decryptJSON(key, pack.output.stateCookie));
    if (!flow.success) return null;
    return { pack: pack.output as StatePackage, flow: flow.output };
  } catch {
    return null;
  }
}
