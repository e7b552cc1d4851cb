import { client, testAuth, TEST_BASE_URL, type TestAuth } from "@latchkey/test-support";
import { endpoint, getService, type Auth, type LatchkeyOptions, type LatchkeyPlugin } from "@latchkey/core";
import * as v from "valibot";
import { createLocalJWKSet, jwtVerify, type JSONWebKeySet, type JWTPayload } from "jose";
import { jwt, JWT_SIGNER, type JwtOptions, type JwtPlugin, type SignOptions } from "../src/index.ts";

export type DatabaseKind = "sqlite" | "postgres" | "mysql";

export const ada = { email: "ada@example.com", password: "correct horse battery", name: "Ada" };

/** A test instance with email sign-up and `jwt(pluginOptions)` on a fresh database. */
export function jwtInstance(
  pluginOptions: JwtOptions = {},
  db: DatabaseKind = "sqlite",
  options: Omit<Partial<LatchkeyOptions>, "database"> = {},
): Promise<TestAuth> {
  return testAuth({ emailAndPassword: { enabled: true }, ...options, plugins: [jwt(pluginOptions)] }, { db });
}

/** A signed-in client of `t` (Ada signed up). */
export async function signedIn(t: TestAuth) {
  const c = client(t.auth);
  const res = await c.post("/sign-up/email", ada);
  if (res.status !== 200) throw new Error(`sign-up failed: ${res.status} ${res.text}`);
  return c;
}

/** Verifies `token` against the key set `/jwks` serves, with the default issuer and audience. */
export async function verifyWithServedKeys(
  keys: JSONWebKeySet,
  token: string,
  expected: { issuer?: string; audience?: string } = {},
): Promise<JWTPayload> {
  const { payload } = await jwtVerify(token, createLocalJWKSet(keys), {
    issuer: expected.issuer ?? TEST_BASE_URL,
    audience: expected.audience ?? TEST_BASE_URL,
  });
  return payload;
}

/** `t.auth.api` typed with the jwt plugin's endpoints (testAuth's instance is typed for core only). */
export const jwtApi = (t: TestAuth): Auth<LatchkeyOptions & { plugins: [JwtPlugin] }>["api"] =>
  t.auth.api as Auth<LatchkeyOptions & { plugins: [JwtPlugin] }>["api"];

/**
 * A stand-in for another plugin (oauth-provider): `POST /probe/sign` signs `payload` through
 * the published `JWT_SIGNER` with `options`, answering `{ token }` or the error's message.
 */
export const signerProbe = () =>
  ({
    id: "jwt-probe",
    requires: ["jwt"],
    endpoints: {
      probeSign: endpoint(
        "/probe/sign",
        { method: "POST", body: v.object({ payload: v.record(v.string(), v.unknown()), options: v.optional(v.record(v.string(), v.unknown())) }) },
        async (ctx) => {
          try {
            return { token: await getService(ctx.context, JWT_SIGNER).sign(ctx.body.payload, ctx.body.options as SignOptions) };
          } catch (error) {
            return { error: (error as Error).message };
          }
        },
      ),
      probeVerify: endpoint("/probe/verify", { method: "POST", body: v.object({ token: v.string() }) }, async (ctx) => {
        const signer = getService(ctx.context, JWT_SIGNER);
        return { payload: await signer.verify(ctx.body.token), jwksUri: signer.jwksUri() };
      }),
    },
  }) satisfies LatchkeyPlugin;

/** A test instance with `jwt(pluginOptions)` and the {@link signerProbe}. */
export function probedInstance(pluginOptions: JwtOptions = {}, db: DatabaseKind = "sqlite", options: Omit<Partial<LatchkeyOptions>, "database"> = {}) {
  return testAuth({ emailAndPassword: { enabled: true }, ...options, plugins: [jwt(pluginOptions), signerProbe()] }, { db });
}
