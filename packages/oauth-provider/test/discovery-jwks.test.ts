import { jwt } from "@latchkey/jwt";
import { client, testAuth } from "@latchkey/test-support";
import { describe, expect, it } from "vitest";
import { oauthProvider } from "../src/index.ts";
import { baseOptions } from "./instance.ts";

describe("discovery's jwks_uri comes from the jwt plugin's signer", () => {
  it("a jwks.remoteUrl is advertised; else the local path under jwksPath", async () => {
    for (const [jwks, expected] of [
      [{ remoteUrl: "https://keys.example.com/.well-known/jwks.json", keyPairConfig: { alg: "EdDSA" } }, "https://keys.example.com/.well-known/jwks.json"],
      [{ jwksPath: "/keys" }, "http://localhost:3000/api/auth/keys"],
    ] as const) {
      const t = await testAuth({ plugins: [jwt({ jwks }), oauthProvider(baseOptions)] }, { db: "sqlite" });
      try {
        for (const path of ["/.well-known/openid-configuration", "/.well-known/oauth-authorization-server"]) {
          const doc = (await client(t.auth).get(path)).json as { jwks_uri: string };
          expect(doc.jwks_uri, path).toBe(expected);
        }
      } finally {
        await t.close();
      }
    }
  });
});
