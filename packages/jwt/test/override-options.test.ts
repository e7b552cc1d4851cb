import { TEST_BASE_URL, type TestAuth } from "@latchkey/test-support";
import { decodeJwt, decodeProtectedHeader } from "jose";
import { afterEach, describe, expect, it } from "vitest";
import type { JwkRow } from "../src/index.ts";
import { jwtApi, jwtInstance } from "./instance.ts";

let open: TestAuth[] = [];
afterEach(async () => {
  await Promise.all(open.map((t) => t.close()));
  open = [];
});
const rows = (t: TestAuth) => t.auth.$context.adapter.findMany<JwkRow & Record<string, unknown>>({ model: "jwks" });

describe("signJWT overrideOptions (the reference's top-level merge)", () => {
  it("an override replaces the whole `jwt` object: unset claims fall back to the defaults, not the plugin's", async () => {
    const t = await jwtInstance({ jwt: { issuer: "https://issuer.test", audience: "plugin-aud", expirationTime: "1h" } });
    open.push(t);
    const api = jwtApi(t);
    const plain = decodeJwt((await api.signJWT({ body: { payload: { sub: "s" } } })).token);
    expect(plain).toMatchObject({ iss: "https://issuer.test", aud: "plugin-aud" });
    expect(plain.exp! - Math.floor(Date.now() / 1000)).toBeGreaterThan(3500);
    const overridden = decodeJwt(
      (await api.signJWT({ body: { payload: { sub: "s" }, overrideOptions: { jwt: { audience: "other-aud" } } } })).token,
    );
    // `jwt` replaced: issuer back to the base URL, lifetime back to 15 minutes.
    expect(overridden).toMatchObject({ iss: TEST_BASE_URL, aud: "other-aud" });
    expect(overridden.exp! - Math.floor(Date.now() / 1000)).toBeLessThanOrEqual(900);
  });

  it("`jwks` overrides choose the key configuration of that call; other calls keep the plugin's", async () => {
    const t = await jwtInstance({ jwks: { keyPairConfig: { alg: "EdDSA" } } });
    open.push(t);
    const api = jwtApi(t);
    const es = await api.signJWT({
      body: { payload: { sub: "s" }, overrideOptions: { jwks: { keyPairConfig: { alg: "ES256" } } } },
    });
    // An empty table: the call makes its key with the overriding configuration, as the reference.
    expect(decodeProtectedHeader(es.token).alg).toBe("ES256");
    // The plugin's own calls: the newest live EdDSA key, else the newest live key (the ES256 one).
    expect(decodeProtectedHeader((await api.signJWT({ body: { payload: { sub: "s" } } })).token).alg).toBe("ES256");
    expect((await rows(t)).map((r) => r.alg)).toEqual(["ES256"]);
    // An override with a bad option is refused like the same option at jwt().
    await expect(
      api.signJWT({ body: { payload: { sub: "s" }, overrideOptions: { jwks: { keyPairConfig: { alg: "HS256" } } } } }),
    ).rejects.toThrow();
    expect(await rows(t)).toHaveLength(1);
  });
});
