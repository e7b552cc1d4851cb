import { describe, expect, it } from "vitest";
import { rowCounts } from "@latchkey/test-support";
import { startDocumentServer } from "./document-server.ts";
import {
  CLIENT_ID,
  CLIENT_SECRET,
  registration,
  signedIn,
  ssoInstance,
  useIdPInstance,
  AUTH,
} from "./instance.ts";

const env = useIdPInstance();

const rows = async () =>
  (await env.t.auth.$context.adapter.findMany<Record<string, unknown>>({ model: "ssoProvider" })) as Record<
    string,
    unknown
  >[];

describe("POST /sso/register with discovery", () => {
  it("row 121: stores the discovered endpoints in the reference's oidcConfig JSON and answers the sanitized provider (no secret)", async () => {
    const browser = await signedIn(env.t, "reg");
    const answer = await browser.post<Record<string, unknown>>(
      "/sso/register",
      registration(env.idp, "acme"),
    );
    expect(answer.status).toBe(200);
    expect(answer.json).toEqual({
      providerId: "acme",
      type: "oidc",
      issuer: env.idp.issuer,
      domain: "acme.example",
      organizationId: null,
      domainVerified: false,
      oidcConfig: {
        discoveryEndpoint: `${env.idp.issuer}/.well-known/openid-configuration`,
        clientIdLastFour: `****${CLIENT_ID.slice(-4)}`,
        pkce: true,
        authorizationEndpoint: `${env.idp.issuer}/auth`,
        tokenEndpoint: `${env.idp.issuer}/token`,
        userInfoEndpoint: `${env.idp.issuer}/me`,
        jwksEndpoint: `${env.idp.issuer}/jwks`,
        tokenEndpointAuthentication: "client_secret_basic",
      },
      spMetadataUrl: `${AUTH}/sso/saml2/sp/metadata?providerId=acme`,
      redirectURI: `${AUTH}/sso/callback/acme`,
    });
    // Row 121: the secret is never echoed.
    expect(answer.text).not.toContain(CLIENT_SECRET);
    const [row] = (await rows()).filter((r) => r.providerId === "acme");
    expect(row).toMatchObject({
      issuer: env.idp.issuer,
      domain: "acme.example",
      samlConfig: null,
      organizationId: null,
    });
    expect(typeof row!.id).toBe("string");
    expect(JSON.parse(String(row!.oidcConfig))).toEqual({
      issuer: env.idp.issuer,
      clientId: CLIENT_ID,
      clientSecret: CLIENT_SECRET,
      discoveryEndpoint: `${env.idp.issuer}/.well-known/openid-configuration`,
      authorizationEndpoint: `${env.idp.issuer}/auth`,
      tokenEndpoint: `${env.idp.issuer}/token`,
      jwksEndpoint: `${env.idp.issuer}/jwks`,
      userInfoEndpoint: `${env.idp.issuer}/me`,
      tokenEndpointAuthentication: "client_secret_basic",
      pkce: true,
      overrideUserInfo: false,
    });
  });

  it("refuses a second provider with the same id (422) and reserved ids", async () => {
    const browser = await signedIn(env.t, "dup");
    const again = await browser.post<{ code: string }>("/sso/register", registration(env.idp, "acme"));
    expect(again.status).toBe(422);
    expect(again.json).toMatchObject({ message: "SSO provider with this providerId already exists" });
    for (const id of ["credential", "email-otp", "siwe"]) {
      const reserved = await browser.post("/sso/register", registration(env.idp, id));
      expect(reserved.status).toBe(422);
    }
  });

  it("row 120: refuses an empty OIDC configuration with a 400 naming what is missing, writing nothing", async () => {
    const browser = await signedIn(env.t, "empty");
    const before = await rowCounts(env.t.auth);
    const none = await browser.post<{ code: string; message: string }>("/sso/register", {
      providerId: "empty",
      issuer: env.idp.issuer,
      domain: "empty.example",
    });
    expect(none.status).toBe(400);
    expect(none.json).toEqual({
      code: "INVALID_OIDC_CONFIG",
      message: "Incomplete OIDC configuration: missing oidcConfig",
    });
    // The reference's answers where the configuration is there but incomplete.
    const bare = await browser.post<{ code: string; message: string }>("/sso/register", {
      ...registration(env.idp, "empty"),
      oidcConfig: {},
    });
    expect([bare.status, bare.json]).toEqual([
      400,
      {
        code: "VALIDATION_ERROR",
        message: "[body.oidcConfig.clientId] Invalid input: expected string, received undefined",
      },
    ]);
    const secretless = await browser.post("/sso/register", {
      ...registration(env.idp, "empty"),
      oidcConfig: { clientId: "c" },
    });
    expect([secretless.status, secretless.json]).toEqual([
      400,
      {
        message:
          "clientSecret is required when using client_secret_basic or client_secret_post authentication",
      },
    ]);
    expect(await rowCounts(env.t.auth)).toEqual(before);
  });

  it("answers the reference's discovery codes", async () => {
    const browser = await signedIn(env.t, "disc");
    const cases: [Record<string, unknown>, number, string][] = [
      [
        { ...registration(env.idp, "d1"), issuer: "https://untrusted.example" },
        400,
        "discovery_untrusted_origin",
      ],
      [
        registration(env.idp, "d2", { discoveryEndpoint: `${env.idp.issuer}/nowhere` }),
        400,
        "discovery_not_found",
      ],
      [{ ...registration(env.idp, "d3"), issuer: `${env.idp.issuer}/other` }, 400, "discovery_not_found"],
      [
        registration(env.idp, "d4", { discoveryEndpoint: `${env.idp.issuer}/jwks` }),
        400,
        "discovery_incomplete",
      ],
    ];
    for (const [body, status, code] of cases) {
      const answer = await browser.post<{ code: string }>("/sso/register", body);
      expect([body.providerId, answer.status, answer.json?.code]).toEqual([body.providerId, status, code]);
    }
    expect((await rows()).map((r) => r.providerId)).not.toContain("d1");
  });

  it("refuses redirects, bad JSON, another issuer and unsupported auth methods from a discovery server", async () => {
    const fake = await startDocumentServer();
    const local = await ssoInstance("sqlite", env.idp, {}, { trustedOrigins: [fake.origin] });
    try {
      const browser = await signedIn(local, "fake");
      const body = (id: string, path: string, oidc: Record<string, unknown> = {}) =>
        registration(env.idp, id, { discoveryEndpoint: `${fake.origin}${path}`, ...oidc });
      const cases: [Record<string, unknown>, number, string][] = [
        [body("r1", "/redirect"), 400, "oidc_endpoint_redirect"],
        [body("r2", "/not-json"), 400, "discovery_invalid_json"],
        [{ ...body("r3", "/other-issuer"), issuer: fake.origin }, 400, "issuer_mismatch"],
        [
          {
            ...body("r4", "/doc", { tokenEndpointAuthentication: "client_secret_post" }),
            issuer: fake.origin,
          },
          400,
          "unsupported_token_auth_method",
        ],
      ];
      for (const [request, status, code] of cases) {
        const answer = await browser.post<{ code: string }>("/sso/register", request);
        expect([request.providerId, answer.status, answer.json?.code]).toEqual([
          request.providerId,
          status,
          code,
        ]);
      }
      // `/doc` lists only `private_key_jwt`: a provider authenticating so needs no client secret,
      // but a key source (`resolvePrivateKey` or `defaultSSO[].privateKey`), which this instance lacks.
      const picked = await browser.post<{ message: string }>("/sso/register", {
        ...registration(env.idp, "r6", {
          discoveryEndpoint: `${fake.origin}/doc`,
          clientSecret: undefined,
          tokenEndpointAuthentication: "private_key_jwt",
        }),
        issuer: fake.origin,
      });
      expect([picked.status, picked.json]).toEqual([
        400,
        {
          message:
            "private_key_jwt authentication requires either a resolvePrivateKey callback or a privateKey in defaultSSO",
        },
      ]);
      expect(fake.paths).toContain("/redirect");
      expect(fake.paths).not.toContain("/elsewhere");
    } finally {
      await local.close();
      await fake.close();
    }
  });

  it("stores the given endpoints with skipDiscovery", async () => {
    const browser = await signedIn(env.t, "skip");
    const answer = await browser.post<{ oidcConfig: Record<string, unknown> }>(
      "/sso/register",
      registration(env.idp, "skip", {
        skipDiscovery: true,
        authorizationEndpoint: "https://env.idp.example/a",
        tokenEndpoint: "https://env.idp.example/t",
        pkce: false,
      }),
    );
    expect(answer.status).toBe(200);
    expect(answer.json?.oidcConfig).toMatchObject({
      authorizationEndpoint: "https://env.idp.example/a",
      pkce: false,
    });
  });

  it("enforces providersLimit", async () => {
    const limited = await ssoInstance("sqlite", env.idp, { providersLimit: 1 });
    const disabled = await ssoInstance("sqlite", env.idp, { providersLimit: 0 });
    try {
      const browser = await signedIn(limited, "lim");
      expect((await browser.post("/sso/register", registration(env.idp, "one"))).status).toBe(200);
      const second = await browser.post<{ message: string }>("/sso/register", registration(env.idp, "two"));
      expect([second.status, second.json?.message]).toEqual([
        403,
        "You have reached the maximum number of SSO providers",
      ]);
      const none = await (
        await signedIn(disabled, "off")
      ).post("/sso/register", registration(env.idp, "one"));
      expect(none.status).toBe(403);
    } finally {
      await limited.close();
      await disabled.close();
    }
  });
});
