import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Browser, CLIENT_ID, startIdP, type TestAuth, type TestIdP } from "@latchkey/test-support";
import { AUTH, signedIn, ssoInstance } from "./instance.ts";

const BASE = "http://localhost:3000";

async function keyPair(algorithm: RsaHashedKeyGenParams | EcKeyGenParams, kid: string, alg: string) {
  const pair = (await crypto.subtle.generateKey(algorithm, true, ["sign", "verify"])) as CryptoKeyPair;
  const publicJwk = { ...(await crypto.subtle.exportKey("jwk", pair.publicKey)), kid, alg, use: "sig" };
  const privateJwk = { ...(await crypto.subtle.exportKey("jwk", pair.privateKey)), kid, alg };
  const der = Buffer.from(await crypto.subtle.exportKey("pkcs8", pair.privateKey)).toString("base64");
  const pem = `-----BEGIN PRIVATE KEY-----\n${der.match(/.{1,64}/g)!.join("\n")}\n-----END PRIVATE KEY-----\n`;
  return { publicJwk, privateJwk, pem };
}

const RSA: RsaHashedKeyGenParams = {
  name: "RSASSA-PKCS1-v1_5",
  modulusLength: 2048,
  publicExponent: new Uint8Array([1, 0, 1]),
  hash: "SHA-256",
};

let idp: TestIdP;
let t: TestAuth;
let rsa: Awaited<ReturnType<typeof keyPair>>;
let ec: Awaited<ReturnType<typeof keyPair>>;
let stranger: Awaited<ReturnType<typeof keyPair>>;
const resolved: unknown[] = [];
let useStranger = false;

beforeAll(async () => {
  rsa = await keyPair(RSA, "rsa-1", "RS256");
  ec = await keyPair({ name: "ECDSA", namedCurve: "P-256" }, "ec-1", "ES256");
  stranger = await keyPair(RSA, "rsa-1", "RS256");
  // The IdP knows the client by its public keys only: it verifies each assertion's signature.
  idp = await startIdP(
    ["acme-pk", "configured-pk"].map((id) => `${AUTH}/sso/callback/${id}`),
    {
      tokenEndpointAuthMethod: "private_key_jwt",
      clientJwks: [rsa.publicJwk, ec.publicJwk],
    },
  );
  idp.accounts.set("erin-sub", { email: "erin@pk.example", email_verified: true, name: "Erin" });
  idp.accounts.set("fay-sub", { email: "fay@conf.example", email_verified: true, name: "Fay" });
  t = await ssoInstance("sqlite", idp, {
    resolvePrivateKey: (params) => {
      resolved.push(params);
      return { privateKeyJwk: useStranger ? stranger.privateJwk : rsa.privateJwk };
    },
    defaultSSO: [
      {
        providerId: "configured-pk",
        domain: "conf.example",
        oidcConfig: {
          issuer: idp.issuer,
          clientId: CLIENT_ID,
          authorizationEndpoint: `${idp.issuer}/auth`,
          tokenEndpoint: `${idp.issuer}/token`,
          jwksEndpoint: `${idp.issuer}/jwks`,
          userInfoEndpoint: `${idp.issuer}/me`,
          tokenEndpointAuthentication: "private_key_jwt",
          pkce: true,
        },
        privateKey: { privateKeyPem: ec.pem, algorithm: "ES256", kid: "ec-1" },
      },
    ],
  });
  const owner = await signedIn(t, "pk-owner");
  const registered = await owner.post("/sso/register", {
    providerId: "acme-pk",
    issuer: idp.issuer,
    domain: "pk.example",
    oidcConfig: {
      clientId: CLIENT_ID,
      tokenEndpointAuthentication: "private_key_jwt",
      privateKeyId: "rsa-1",
    },
  });
  if (registered.status !== 200) throw new Error(`register: ${registered.status} ${registered.text}`);
});
afterAll(async () => {
  await t.close();
  await idp.close();
});

async function signIn(body: Record<string, unknown>, sub: string) {
  const browser = new Browser(BASE, t.auth.handler);
  idp.login(sub);
  const res = await browser.post(`${AUTH}/sign-in/sso`, {
    callbackURL: "/dashboard",
    errorCallbackURL: "/oops",
    ...body,
  });
  const { url } = (await res.json()) as { url: string };
  const { location } = await browser.follow(url);
  const session = (await (await browser.send(`${AUTH}/get-session`)).json()) as {
    user: { email: string };
  } | null;
  return { location: new URL(location, BASE), email: session?.user.email };
}

describe("private_key_jwt at the token endpoint, verified by a real IdP", () => {
  it("a registered provider signs its assertion with the key resolvePrivateKey gives (JWK, RS256)", async () => {
    const { location, email } = await signIn({ providerId: "acme-pk" }, "erin-sub");
    expect([location.pathname, email]).toEqual(["/dashboard", "erin@pk.example"]);
    expect(resolved.at(-1)).toEqual({ providerId: "acme-pk", keyId: "rsa-1", issuer: idp.issuer });
    const row = await t.auth.$context.adapter.findOne<{ oidcConfig: string }>({
      model: "ssoProvider",
      where: [{ field: "providerId", value: "acme-pk" }],
    });
    expect(JSON.parse(row!.oidcConfig)).toMatchObject({ tokenEndpointAuthentication: "private_key_jwt" });
    expect(JSON.parse(row!.oidcConfig).clientSecret).toBeUndefined();
  });

  it("a defaultSSO provider signs with its configured PKCS#8 PEM key (ES256)", async () => {
    const { location, email } = await signIn({ email: "fay@conf.example" }, "fay-sub");
    expect([location.pathname, location.search, email]).toEqual(["/dashboard", "", "fay@conf.example"]);
  });

  it("an assertion signed with a key the IdP does not hold is refused: error redirect, nobody signed in", async () => {
    useStranger = true;
    try {
      const { location, email } = await signIn({ providerId: "acme-pk" }, "erin-sub");
      expect(location.pathname).toBe("/oops");
      expect(location.searchParams.get("error")).toBeTruthy();
      expect(email).toBeUndefined();
    } finally {
      useStranger = false;
    }
  });
});
