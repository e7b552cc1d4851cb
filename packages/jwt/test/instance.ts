import { client, testAuth, TEST_BASE_URL, type TestAuth } from "@latchkey/test-support";
import type { Auth, LatchkeyOptions } from "@latchkey/core";
import { createLocalJWKSet, jwtVerify, type JSONWebKeySet, type JWTPayload } from "jose";
import { jwt, type JwtOptions, type JwtPlugin } from "../src/index.ts";

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
