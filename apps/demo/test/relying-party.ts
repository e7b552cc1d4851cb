import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import * as oidc from "openid-client";
import { afterAll } from "vitest";
import type { APIUser } from "./api-user.js";

// The relying party of the OpenID e2e tests: openid-client 6 in the test process, with its
// redirect URI on 127.0.0.1, against the demo as the provider.

let callbackServer: Server | undefined;
afterAll(() => new Promise<void>((done) => (callbackServer ? callbackServer.close(() => done()) : done())));

/** The relying party's redirect URI (one server per test file): records each URL the browser lands on. */
export async function startCallbackServer(): Promise<{ redirectURI: string; landed: URL[] }> {
  const landed: URL[] = [];
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", `http://${req.headers.host}`);
    if (url.pathname !== "/callback") return void res.writeHead(404).end(); // the browser's /favicon.ico
    landed.push(url);
    res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end("<!doctype html><title>RP</title><p id=rp>back at the application</p>");
  });
  callbackServer = server;
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  const { port } = server.address() as AddressInfo;
  return { redirectURI: `http://127.0.0.1:${port}/callback`, landed };
}

/** A client's credentials as the demo hands them out. */
export interface ClientCredentials {
  client_id: string;
  client_secret: string;
}

/** Registers a confidential client for `redirectURI` as `owner`, with the fields the /security page sends. */
export function registerClient(owner: APIUser, name: string, redirectURI: string): Promise<ClientCredentials> {
  return owner.call<ClientCredentials>("/oauth2/create-client", {
    client_name: name,
    redirect_uris: [redirectURI],
    application_type: "native", // an http://127.0.0.1 redirect URI, as /security decides
    token_endpoint_auth_method: "client_secret_basic",
    grant_types: ["authorization_code", "refresh_token"],
  });
}

/** openid-client's configuration for `credentials`, from the demo's discovery document. */
export function discover(baseURL: string, credentials: ClientCredentials): Promise<oidc.Configuration> {
  return oidc.discovery(
    new URL(`${baseURL}/api/auth`),
    credentials.client_id,
    { id_token_signed_response_alg: "EdDSA" },
    oidc.ClientSecretBasic(credentials.client_secret),
    { execute: [oidc.allowInsecureRequests] },
  );
}

/** One authorization request with PKCE (S256), `state` and `nonce`, and what its checks need. */
export interface AuthorizationRequest {
  url: URL;
  verifier: string;
  state: string;
  nonce: string;
}

/** Builds an authorization request for `scope` to `redirectURI`, with fresh PKCE, state and nonce. */
export async function authorizationRequest(config: oidc.Configuration, redirectURI: string, scope: string): Promise<AuthorizationRequest> {
  const verifier = oidc.randomPKCECodeVerifier();
  const state = oidc.randomState();
  const nonce = oidc.randomNonce();
  const url = oidc.buildAuthorizationUrl(config, {
    redirect_uri: redirectURI,
    scope,
    code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
    code_challenge_method: "S256",
    state,
    nonce,
  });
  return { url, verifier, state, nonce };
}

/** The callbacks among `landed` that answer `request` (by its `state`): tests sharing one callback server stay apart. */
export function answersTo(landed: readonly URL[], request: AuthorizationRequest): URL[] {
  return landed.filter((url) => url.searchParams.get("state") === request.state);
}

/** Redeems the code `callback` carries for `request`, checking state, nonce and the ID token. */
export function redeem(config: oidc.Configuration, callback: URL, request: AuthorizationRequest): ReturnType<typeof oidc.authorizationCodeGrant> {
  return oidc.authorizationCodeGrant(config, callback, {
    pkceCodeVerifier: request.verifier,
    expectedState: request.state,
    expectedNonce: request.nonce,
    idTokenExpected: true,
  });
}
