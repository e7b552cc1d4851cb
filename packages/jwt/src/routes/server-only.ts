import { endpoint, getService } from "@latchkey/core";
import type { JWTPayload } from "jose";
import * as v from "valibot";
import { JWT_SIGNER } from "../signer.js";

const audience = v.union([v.string(), v.array(v.string())]);
const expirationTime = v.union([v.string(), v.number(), v.date()]);

const signBody = v.object({
  payload: v.record(v.string(), v.unknown()),
  /** The reference merges these over the plugin options; the claim settings are what apply. */
  overrideOptions: v.optional(
    v.looseObject({
      jwt: v.optional(
        v.looseObject({
          issuer: v.optional(v.string()),
          audience: v.optional(audience),
          expirationTime: v.optional(expirationTime),
        }),
      ),
    }),
  ),
});

const verifyBody = v.object({ token: v.string(), issuer: v.optional(v.string()) });

/** Server-only `auth.api.signJWT({ body: { payload, overrideOptions? } })`: `{ token }`. */
export const signJWT = endpoint("/sign-jwt", { method: "POST", body: signBody, serverOnly: true }, async (ctx) => ({
  token: await getService(ctx.context, JWT_SIGNER).sign(ctx.body.payload as JWTPayload, ctx.body.overrideOptions?.jwt),
}));

/** Server-only `auth.api.verifyJWT({ body: { token, issuer? } })`: `{ payload }`, null when invalid. */
export const verifyJWT = endpoint("/verify-jwt", { method: "POST", body: verifyBody, serverOnly: true }, async (ctx) => ({
  payload: await getService(ctx.context, JWT_SIGNER).verify(ctx.body.token, { issuer: ctx.body.issuer }),
}));
