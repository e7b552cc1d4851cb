import { endpoint, getService } from "@latchkey/core";
import type { JWTPayload } from "jose";
import * as v from "valibot";
import { keyStore, type KeyStore } from "../key-store.js";
import { resolveJwtOptions, type JwtOptions, type ResolvedJwtOptions } from "../options.js";
import { signToken } from "../sign-token.js";
import { JWT_SIGNER } from "../signer.js";

const signBody = v.object({
  payload: v.record(v.string(), v.unknown()),
  /** Plugin options merged over the plugin's, top-level key by top-level key (the reference's spread). */
  overrideOptions: v.optional(v.record(v.string(), v.unknown())),
});

const verifyBody = v.object({ token: v.string(), issuer: v.optional(v.string()) });

/**
 * Server-only `auth.api.signJWT({ body: { payload, overrideOptions? } })`: `{ token }`.
 * `overrideOptions` replaces whole top-level options as the reference's `{ ...options,
 * ...overrideOptions }` does: `{ jwt: { audience } }` replaces the plugin's `jwt` object, so
 * its `issuer` falls back to the base URL. Overrides that leave `jwks` and `adapter` alone
 * sign with the plugin's own keys.
 */
export function signJWT(raw: JwtOptions, options: ResolvedJwtOptions, store: KeyStore) {
  return endpoint("/sign-jwt", { method: "POST", body: signBody, serverOnly: true }, async (ctx) => {
    const payload = ctx.body.payload as JWTPayload;
    const override = ctx.body.overrideOptions;
    if (!override) return { token: await getService(ctx.context, JWT_SIGNER).sign(payload) };
    const merged = resolveJwtOptions({ ...raw, ...override } as JwtOptions);
    const keys = "jwks" in override || "adapter" in override ? keyStore(merged) : store;
    return { token: await signToken(ctx.context, merged, keys, payload) };
  });
}

/** Server-only `auth.api.verifyJWT({ body: { token, issuer? } })`: `{ payload }`, null when invalid. */
export const verifyJWT = endpoint("/verify-jwt", { method: "POST", body: verifyBody, serverOnly: true }, async (ctx) => ({
  payload: await getService(ctx.context, JWT_SIGNER).verify(ctx.body.token, { issuer: ctx.body.issuer }),
}));
