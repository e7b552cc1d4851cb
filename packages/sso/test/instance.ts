import { afterAll, beforeAll } from "vitest";
import {
  client,
  CLIENT_ID,
  CLIENT_SECRET,
  startIdP,
  testAuth,
  type DatabaseKind,
  type TestAuth,
  type TestClient,
  type TestIdP,
} from "@latchkey/test-support";
import { sso, type SSOOptions } from "../src/index.ts";

export const PASSWORD = "correct horse battery";
export const AUTH = "http://localhost:3000/api/auth";

/** A real OpenID provider on 127.0.0.1 that accepts the plugin's callback for `providerId`s given. */
export const startSSOIdP = (providerIds: string[] = ["acme"]): Promise<TestIdP> =>
  startIdP(providerIds.map((id) => `${AUTH}/sso/callback/${id}`));

/** An instance with email/password and `sso(options)` trusting the IdP's origin. */
export const ssoInstance = (
  db: DatabaseKind,
  idp: TestIdP,
  options?: SSOOptions,
  extra: Record<string, unknown> = {},
): Promise<TestAuth> =>
  testAuth(
    { emailAndPassword: { enabled: true }, trustedOrigins: [idp.issuer], plugins: [sso(options)], ...extra },
    { db },
  );

/** Signs user `n` up through a new browser, which ends up signed in as them. */
export async function signedIn(t: TestAuth, n: number | string): Promise<TestClient> {
  const browser = client(t.auth);
  const answer = await browser.post("/sign-up/email", {
    email: `user${n}@example.com`,
    password: PASSWORD,
    name: `User ${n}`,
  });
  if (answer.status !== 200) throw new Error(`sign-up failed: ${answer.status}`);
  return browser;
}

/** A registration body for the test IdP. */
export const registration = (idp: TestIdP, providerId = "acme", oidc: Record<string, unknown> = {}) => ({
  providerId,
  issuer: idp.issuer,
  domain: "acme.example",
  oidcConfig: { clientId: CLIENT_ID, clientSecret: CLIENT_SECRET, ...oidc },
});

export { CLIENT_ID, CLIENT_SECRET };

/** The IdP and the SQLite instance of a test file, started before its tests and stopped after. */
export interface SharedIdPInstance {
  idp: TestIdP;
  t: TestAuth;
}

/** Registers the hooks that start the IdP and an instance trusting it, for the file's tests to share. */
export function useIdPInstance(): SharedIdPInstance {
  const shared = {} as SharedIdPInstance;
  beforeAll(async () => {
    shared.idp = await startSSOIdP();
    shared.t = await ssoInstance("sqlite", shared.idp);
  });
  afterAll(async () => {
    await shared.t.close();
    await shared.idp.close();
  });
  return shared;
}
