import { lookup } from "node:dns/promises";
import { hostname } from "node:os";
import { exportJWK, generateKeyPair, SignJWT } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { privateResolutionProblem, type HostLookup } from "../src/resolved-host.ts";
import { liveProvider, localServer, type LiveProvider } from "./live-provider.ts";

const ASSERTION_TYPE = "urn:ietf:params:oauth:client-assertion-type:jwt-bearer";
/** DNS answers as a resolver might give them (the outside world, injected). */
const answers = (addresses: string[]): HostLookup => async () => addresses;

describe("server-side fetches: the target name is resolved and every address must be public", () => {
  it("refuses a name with any private, loopback, link-local or mapped answer; accepts public answers", async () => {
    expect(await privateResolutionProblem("keys.example.com", answers(["93.184.216.34", "2606:2800:220:1::1"]))).toBeNull();
    for (const inside of [["127.0.0.1"], ["93.184.216.34", "10.0.0.5"], ["169.254.169.254"], ["::1"], ["fd00::1"], ["::ffff:192.168.1.1"], ["100.64.0.1"]]) {
      expect(await privateResolutionProblem("keys.example.com", answers(inside)), inside.join()).toBe("host resolves to a private or reserved address");
    }
  });

  it("refuses a name that does not resolve; leaves IP literals to the URL checks", async () => {
    expect(await privateResolutionProblem("keys.example.com", answers([]))).toBe("host does not resolve");
    const failing: HostLookup = async () => {
      throw Object.assign(new Error("getaddrinfo ENOTFOUND"), { code: "ENOTFOUND" });
    };
    expect(await privateResolutionProblem("keys.example.com", failing)).toBe("host does not resolve");
    let asked = 0;
    const counting: HostLookup = async () => {
      asked += 1;
      return ["127.0.0.1"];
    };
    expect(await privateResolutionProblem("203.0.113.9", counting)).toBeNull();
    expect(await privateResolutionProblem("[2001:db8::1]", counting)).toBeNull();
    expect(asked).toBe(0);
  });

  it("with the system resolver: this machine's own name (no dot, so no syntactic rule catches it) resolves inside", async () => {
    const own = hostname();
    const addresses = (await lookup(own, { all: true })).map((entry) => entry.address);
    expect(addresses.length).toBeGreaterThan(0);
    expect(await privateResolutionProblem(own)).toBe("host resolves to a private or reserved address");
  });
});

describe("jwks_uri whose name resolves to this machine", () => {
  const own = hostname();
  let provider: LiveProvider;
  let keysServer: Awaited<ReturnType<typeof localServer>>;
  let fetched = 0;
  let listedOrigin: string;
  let privateKey: CryptoKey;
  let publicJwk: Record<string, unknown>;

  beforeAll(async () => {
    const pair = await generateKeyPair("ES256", { extractable: true });
    privateKey = pair.privateKey;
    publicJwk = { ...(await exportJWK(pair.publicKey)), kid: "k1", alg: "ES256" };
    keysServer = await localServer(() => {
      fetched += 1;
      return Response.json({ keys: [publicJwk] });
    });
    const port = new URL(keysServer.origin).port;
    listedOrigin = `http://${own}:${port}`;
    provider = await liveProvider(
      { privateHostAllowList: [`${own}:${port}`] },
      { trustedOrigins: [listedOrigin, `https://${own}:${Number(port) + 1}`] },
    );
  });
  afterAll(async () => {
    await provider.close();
    await keysServer.close();
  });

  /** A private_key_jwt client whose stored `jwks_uri` is `uri` (a row as another node may have written it). */
  async function clientWith(uri: string): Promise<string> {
    const api = provider.auth.api as unknown as { adminCreateOAuthClient(input: { body: unknown }): Promise<{ client_id: string }> };
    const { client_id } = await api.adminCreateOAuthClient({
      body: { token_endpoint_auth_method: "private_key_jwt", jwks: { keys: [publicJwk] }, grant_types: ["client_credentials"] },
    });
    await provider.auth.$context.adapter.update({ model: "oauthClient", where: [{ field: "clientId", value: client_id }], update: { jwks: null, jwksUri: uri } });
    return client_id;
  }

  async function introspectAs(clientId: string): Promise<Response> {
    const now = Math.floor(Date.now() / 1000);
    const assertion = await new SignJWT({ iss: clientId, sub: clientId, aud: provider.issuer, jti: crypto.randomUUID(), iat: now, exp: now + 60 })
      .setProtectedHeader({ alg: "ES256", kid: "k1" })
      .sign(privateKey);
    return fetch(`${provider.issuer}/oauth2/introspect`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ token: "t", client_assertion_type: ASSERTION_TYPE, client_assertion: assertion }),
    });
  }

  it("not on the allow-list: refused before any request is sent (invalid_client), though the name passes the URL checks", async () => {
    // Another port: the allow-list names host and port.
    const clientId = await clientWith(`https://${own}:${Number(new URL(keysServer.origin).port) + 1}/jwks`);
    const before = fetched;
    const res = await introspectAs(clientId);
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ error: "invalid_client", error_description: "client jwks_uri is not trusted" });
    expect(fetched).toBe(before);
  });

  it("on privateHostAllowList: fetched and used", async () => {
    const clientId = await clientWith(`${listedOrigin}/jwks`);
    const before = fetched;
    const res = await introspectAs(clientId);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ active: false });
    expect(fetched).toBe(before + 1);
  });
});
