import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import Provider, { type KoaContextWithOIDC } from "oidc-provider";
import { exportJWK, generateKeyPair, importJWK, SignJWT, type JWK, type JWTPayload } from "jose";

/** Claims of one test account at the IdP. */
export interface IdPAccount {
  email?: string;
  email_verified?: boolean;
  name?: string;
  picture?: string;
}

export const CLIENT_ID = "latchkey-test";
export const CLIENT_SECRET = "a-client-secret-with:colon+plus";

/** A real OpenID provider (node-oidc-provider) on 127.0.0.1, with a test client and accounts. */
export interface TestIdP {
  issuer: string;
  /** Accounts by `sub`. */
  accounts: Map<string, IdPAccount>;
  /** The account the next login interaction signs in. */
  login(sub: string): void;
  /** Signs an ID token with the IdP's own key (to forge tokens with chosen claims). */
  signIdToken(claims: JWTPayload, options?: { alg?: string; kid?: string }): Promise<string>;
  /** Requests the IdP answered (method and path), newest last. */
  requests: string[];
  close(): Promise<void>;
}

/**
 * Starts the IdP. Login is a fixed account chosen by `login(sub)`, finished by the test's
 * interaction handler (no UI); consent is granted automatically (first-party client), so a
 * browser following redirects goes straight from the authorization endpoint to the callback.
 */
export async function startIdP(
  redirectURIs: string[],
  options: {
    pkceRequired?: boolean;
    /** How the test client authenticates at the token endpoint (the reference's default is post). */
    tokenEndpointAuthMethod?: "client_secret_basic" | "client_secret_post" | "private_key_jwt";
    /** Public keys of the test client, which verify its `private_key_jwt` assertions (RFC 7523). */
    clientJwks?: JWK[];
  } = {},
): Promise<TestIdP> {
  const { privateKey } = await generateKeyPair("RS256", { extractable: true });
  // No `alg` on the key: then only the verifier's algorithm allow-list stands between a PS256 token and acceptance.
  const jwk: JWK = { ...(await exportJWK(privateKey)), kid: "test-key-1", use: "sig" };
  const accounts = new Map<string, IdPAccount>();
  const requests: string[] = [];
  let next = "";
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: CLIENT_ID,
        // A private_key_jwt client has no secret: only its signed assertion authenticates it.
        ...(options.tokenEndpointAuthMethod === "private_key_jwt"
          ? { jwks: { keys: options.clientJwks ?? [] } }
          : { client_secret: CLIENT_SECRET }),
        redirect_uris: redirectURIs,
        grant_types: ["authorization_code", "refresh_token"],
        response_types: ["code"],
        token_endpoint_auth_method: options.tokenEndpointAuthMethod ?? "client_secret_basic",
      },
    ],
    jwks: { keys: [jwk] },
    cookies: { keys: ["idp-cookie-key-0123456789"] },
    claims: { openid: ["sub"], email: ["email", "email_verified"], profile: ["name", "picture"] },
    features: { devInteractions: { enabled: false } },
    enabledJWA: { idTokenSigningAlgValues: ["RS256"] },
    ttl: {
      AccessToken: 3600,
      AuthorizationCode: 60,
      IdToken: 3600,
      RefreshToken: 86400,
      Interaction: 600,
      Session: 3600,
      Grant: 3600,
    },
    pkce: { required: () => options.pkceRequired ?? true },
    findAccount: (_ctx: unknown, sub: string) => {
      const account = accounts.get(sub);
      return account ? { accountId: sub, claims: () => ({ sub, ...account }) } : undefined;
    },
    // Refresh tokens for every code grant of this client, without requiring offline_access.
    issueRefreshToken: (_ctx: unknown, client: { grantTypeAllowed(t: string): boolean }) =>
      client.grantTypeAllowed("refresh_token"),
    // First-party client: consent is implied for whatever it asks.
    loadExistingGrant: async (ctx: KoaContextWithOIDC) => {
      const accountId = ctx.oidc.session?.accountId;
      const clientId = ctx.oidc.client?.clientId;
      if (!accountId || !clientId) return undefined;
      const grant = new ctx.oidc.provider.Grant({ accountId, clientId });
      grant.addOIDCScope(String(ctx.oidc.params?.scope ?? "openid"));
      grant.addOIDCClaims(["email", "email_verified", "name", "picture"]);
      await grant.save();
      return grant;
    },
  });
  const callback = provider.callback();
  server.on("request", (req, res) => {
    requests.push(`${req.method} ${req.url?.split("?")[0]}`);
    if (req.url?.startsWith("/interaction/")) {
      provider
        .interactionDetails(req, res)
        .then((details) => {
          if (details.prompt.name !== "login") throw new Error(`unexpected prompt ${details.prompt.name}`);
          return provider.interactionFinished(
            req,
            res,
            { login: { accountId: next } },
            { mergeWithLastSubmission: false },
          );
        })
        .catch((error: unknown) => {
          res.statusCode = 500;
          res.end(String(error));
        });
      return;
    }
    callback(req, res);
  });

  return {
    issuer,
    accounts,
    requests,
    login: (sub) => {
      next = sub;
    },
    async signIdToken(claims, opts = {}) {
      const now = Math.floor(Date.now() / 1000);
      const alg = opts.alg ?? "RS256";
      // The same RSA key under another RSA algorithm (PS256, RS384): a token the JWKS key verifies.
      const key = alg === "RS256" ? privateKey : await importJWK({ ...jwk, alg }, alg);
      return new SignJWT({ iat: now, exp: now + 300, iss: issuer, aud: CLIENT_ID, ...claims })
        .setProtectedHeader({ alg, kid: opts.kid ?? "test-key-1" })
        .sign(key);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
