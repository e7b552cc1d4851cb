import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWK, type JWTPayload } from "jose";

/** A signing key only the test holds (a KMS stand-in), published by {@link startKeyServer}. */
export interface RemoteKey {
  kid: string;
  alg: "ES256" | "EdDSA";
  privateKey: CryptoKey;
  publicJwk: JWK;
  /** Signs as a remote `jwt.sign` would: its own `alg` and `kid`, the caller's header members. */
  sign(payload: JWTPayload, header?: Record<string, unknown>): Promise<string>;
}

export async function remoteKey(kid: string, alg: "ES256" | "EdDSA" = "ES256"): Promise<RemoteKey> {
  const { privateKey, publicKey } = await generateKeyPair(alg);
  const publicJwk = { ...(await exportJWK(publicKey)), kid, alg, use: "sig" };
  return {
    kid,
    alg,
    privateKey,
    publicJwk,
    sign: (payload, header) => new SignJWT(payload).setProtectedHeader({ ...header, alg, kid }).sign(privateKey),
  };
}

/** A key-set server on 127.0.0.1: `/jwks` answers `{ keys }` (the test changes them), `/redirect` a 302, `/broken` a 500. */
export interface KeyServer {
  url: string;
  origin: string;
  keys: JWK[];
  /** Requests to `/jwks` so far. */
  hits: number;
  close(): Promise<void>;
}

export async function startKeyServer(keys: JWK[]): Promise<KeyServer> {
  const state: KeyServer = { url: "", origin: "", keys, hits: 0, close: async () => {} };
  const server = createServer((request, response) => {
    if (request.url === "/jwks") {
      state.hits += 1;
      return response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ keys: state.keys }));
    }
    if (request.url === "/redirect") return response.writeHead(302, { location: `${state.origin}/jwks` }).end();
    if (request.url === "/broken") return response.writeHead(500).end("down");
    response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  state.origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  state.url = `${state.origin}/jwks`;
  state.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return state;
}
