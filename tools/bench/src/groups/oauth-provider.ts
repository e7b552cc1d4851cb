import { createHash, randomBytes } from "node:crypto";
import { loadavg } from "node:os";
import { percentile } from "../load.js";
import { withServers, type RunContext, type Target } from "../run-context.js";
import type { DatabaseConfig } from "../server-config.js";
import { openSeed } from "../sqlite-seed.js";
import { seedFetch } from "../seed-fetch.js";
import type { Table } from "../table.js";
import { msText, ratioText } from "../targets.js";
import { measureFigures, pairTable, scaleSpecs, type PairRow } from "./pair-rows.js";

const REDIRECT = "https://client.example.com/callback";
/** A machine scope for client_credentials (user-delegated scopes are refused for that grant). */
const M2M_SCOPE = "read";

/** Both providers get the same options: EdDSA signing keys, hashed client secrets (the default, named). */
const PLUGIN_OPTIONS = {
  jwt: { jwks: { keyPairConfig: { alg: "EdDSA", crv: "Ed25519" } } },
  "oauth-provider": {
    loginPage: "/login",
    consentPage: "/consent",
    scopes: ["openid", "profile", "email", "offline_access", M2M_SCOPE],
    storeClientSecret: "hashed",
  },
};

/** One timed authorization-code round trip's parts. */
export interface RoundTrips {
  /** Milliseconds of each whole trip: sign-in, authorize, consent, token. */
  total: number[];
  /** The OAuth part alone: authorize, consent, token (sign-in's scrypt excluded). */
  oauth: number[];
}

export interface OAuthProviderResult {
  rows: PairRow[];
  roundTrips: Record<"latchkey" | "reference", RoundTrips>;
}

type Key = "latchkey" | "reference";

interface Client {
  id: string;
  secret: string;
  basic: string;
}

interface Seeded {
  m2m: Client;
  web: Client;
  /** A JWT access token from client_credentials with the userinfo URL as resource. */
  jwt: string;
}

/**
 * Issue #11: `@latchkey/oauth-provider` against `@better-auth/oauth-provider@1.7.5`, both with
 * the jwt plugin on EdDSA keys and hashed client secrets, on SQLite. client_credentials at the
 * token endpoint, introspection of a JWT access token, and the authorization-code round trip
 * (sign-in, authorize with prompt=consent, consent, token) timed one after the other.
 */
export async function runOAuthProvider(ctx: RunContext): Promise<OAuthProviderResult> {
  const specs = scaleSpecs(ctx, ["jwt", "oauth-provider"], PLUGIN_OPTIONS);
  return withServers(ctx, specs, async (targets) => {
    const seeded = {} as Record<Key, Seeded>;
    for (const key of ["latchkey", "reference"] as const) seeded[key] = await seedClients(targets[key], specs[key].settings.database);
    const form = (target: Target, body: Record<string, string>, client: Client) => ({
      path: "/api/auth/oauth2/token",
      headers: { "content-type": "application/x-www-form-urlencoded", authorization: client.basic, origin: target.server.baseURL },
      body: new URLSearchParams(body).toString(),
    });
    const rows = await measureFigures(
      ctx,
      targets,
      [
        {
          label: "token: client_credentials (Basic, hashed secret)",
          minRatio: 5,
          request: (target, key) => ({
            method: "POST",
            requests: [form(target, { grant_type: "client_credentials", scope: M2M_SCOPE }, seeded[key].m2m)],
          }),
        },
        {
          label: "introspect a JWT access token (EdDSA)",
          minRatio: 8,
          request: (target, key) => ({
            method: "POST",
            requests: [
              {
                ...form(target, { token: seeded[key].jwt, token_type_hint: "access_token" }, seeded[key].m2m),
                path: "/api/auth/oauth2/introspect",
              },
            ],
          }),
        },
      ],
      () => loadavg()[0] ?? 0,
    );
    const trips = Math.max(10, Math.round(ctx.options.durationSeconds * ctx.options.rounds * 4));
    const roundTrips = {} as Record<Key, RoundTrips>;
    for (const key of ["latchkey", "reference"] as const) {
      roundTrips[key] = await timeRoundTrips(targets[key], seeded[key].web, trips);
      const { total, oauth } = roundTrips[key];
      ctx.log(
        `${key} authorization-code round trip ×${trips}: p50 ${msText(percentile(total, 50))} ms, p99 ${msText(percentile(total, 99))} ms (OAuth part p99 ${msText(percentile(oauth, 99))} ms; load average ${(loadavg()[0] ?? 0).toFixed(2)})`,
      );
    }
    return { rows, roundTrips };
  });
}

/** Two confidential clients made through the API (client_credentials' scopes set by SQL, as no HTTP route sets them), and a JWT access token. */
async function seedClients({ server, user }: Target, database: DatabaseConfig): Promise<Seeded> {
  const base = server.baseURL;
  const create = async (body: Record<string, unknown>): Promise<Client> => {
    const res = await seedFetch(`${base}/api/auth/oauth2/create-client`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: base, cookie: user.cookie },
      body: JSON.stringify({ client_name: "bench", token_endpoint_auth_method: "client_secret_basic", ...body }),
    });
    const client = (await res.json()) as { client_id?: string; client_secret?: string };
    if (res.status !== 201 && res.status !== 200) throw new Error(`oauth2/create-client answered ${res.status}: ${JSON.stringify(client)}`);
    if (!client.client_id || !client.client_secret) throw new Error(`no client credentials: ${JSON.stringify(client)}`);
    return {
      id: client.client_id,
      secret: client.client_secret,
      basic: `Basic ${Buffer.from(`${client.client_id}:${client.client_secret}`).toString("base64")}`,
    };
  };
  const m2m = await create({ redirect_uris: [REDIRECT], grant_types: ["client_credentials"], response_types: [] });
  const web = await create({ redirect_uris: [REDIRECT], grant_types: ["authorization_code"], response_types: ["code"] });
  const db = openSeed(database);
  try {
    db.run(`update "oauthClient" set "clientCredentialsScopes" = ? where "clientId" = ?`, JSON.stringify([M2M_SCOPE]), m2m.id);
  } finally {
    db.close();
  }
  const token = await seedFetch(`${base}/api/auth/oauth2/token`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", authorization: m2m.basic },
    body: new URLSearchParams({ grant_type: "client_credentials", scope: M2M_SCOPE, resource: `${base}/api/auth/oauth2/userinfo` }).toString(),
  });
  const tokens = (await token.json()) as { access_token?: string };
  if (token.status !== 200 || tokens.access_token?.split(".").length !== 3)
    throw new Error(`client_credentials with a resource answered ${token.status}: ${JSON.stringify(tokens)}`);
  const introspected = await seedFetch(`${base}/api/auth/oauth2/introspect`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", authorization: m2m.basic },
    body: new URLSearchParams({ token: tokens.access_token }).toString(),
  });
  const answer = (await introspected.json()) as { active?: boolean };
  if (introspected.status !== 200 || answer.active !== true)
    throw new Error(`introspection of the JWT answered ${introspected.status}: ${JSON.stringify(answer)}`);
  return { m2m, web, jwt: tokens.access_token };
}

/** `trips` authorization-code round trips one after the other, each from a fresh sign-in. */
async function timeRoundTrips({ server, user }: Target, client: Client, trips: number): Promise<RoundTrips> {
  const base = server.baseURL;
  const result: RoundTrips = { total: [], oauth: [] };
  for (let i = 0; i < trips; i++) {
    const started = performance.now();
    const signIn = await seedFetch(`${base}/api/auth/sign-in/email`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: base },
      body: JSON.stringify({ email: user.email, password: user.password }),
    });
    if (signIn.status !== 200) throw new Error(`sign-in answered ${signIn.status}`);
    const cookie = signIn.headers
      .getSetCookie()
      .map((c) => c.split(";", 1)[0])
      .join("; ");
    const signedIn = performance.now();
    const verifier = randomBytes(32).toString("base64url");
    const query = new URLSearchParams({
      response_type: "code",
      client_id: client.id,
      redirect_uri: REDIRECT,
      scope: "openid profile email",
      state: randomBytes(8).toString("hex"),
      code_challenge: createHash("sha256").update(verifier).digest("base64url"),
      code_challenge_method: "S256",
      prompt: "consent",
    });
    // fetch sends `Sec-Fetch-Mode: cors`, so both answer `{ redirect: true, url }` instead of a 302.
    const authorize = await seedFetch(`${base}/api/auth/oauth2/authorize?${query}`, { headers: { cookie }, redirect: "manual" });
    const location =
      authorize.status === 200 ? ((await authorize.json()) as { url?: string }).url : authorize.headers.get("location");
    const consentPage = new URL(location ?? "", base);
    if (consentPage.pathname !== "/consent") throw new Error(`authorize answered ${authorize.status} to ${consentPage.href}`);
    const consent = await seedFetch(`${base}/api/auth/oauth2/consent`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: base, cookie },
      body: JSON.stringify({ accept: true, oauth_query: consentPage.search.slice(1) }),
    });
    const consented = (await consent.json()) as { url?: string };
    const code = consented.url ? new URL(consented.url).searchParams.get("code") : null;
    if (consent.status !== 200 || !code) throw new Error(`consent answered ${consent.status}: ${JSON.stringify(consented)}`);
    const token = await seedFetch(`${base}/api/auth/oauth2/token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", authorization: client.basic },
      body: new URLSearchParams({ grant_type: "authorization_code", code, code_verifier: verifier, redirect_uri: REDIRECT }).toString(),
    });
    const tokens = (await token.json()) as { access_token?: string; id_token?: string };
    if (token.status !== 200 || !tokens.access_token || !tokens.id_token)
      throw new Error(`code redemption answered ${token.status}: ${JSON.stringify(tokens)}`);
    const ended = performance.now();
    result.total.push(ended - started);
    result.oauth.push(ended - signedIn);
  }
  result.total.sort((a, b) => a - b);
  result.oauth.sort((a, b) => a - b);
  return result;
}

export function oauthProviderTable(result: OAuthProviderResult): Table {
  const table = pairTable("issue #11: OAuth provider (SQLite in WAL mode, EdDSA keys, hashed client secrets)", result.rows, [
    "client_credentials: a confidential client authenticating with Basic each request; an opaque access token is issued and stored.",
    "introspect: the introspecting client authenticates with Basic; the token is a JWT access token (aud: the userinfo URL), the same one each request: the reference verifies its signature each time, Latchkey once (jwt remembers verified tokens until exp; jwt README, \"Keys in memory\").",
  ]);
  const { latchkey, reference } = result.roundTrips;
  const p99 = (values: number[]) => percentile(values, 99);
  const p50 = (values: number[]) => percentile(values, 50);
  table.rows.push(
    [
      `authorization-code round trip p50/p99 (×${latchkey.total.length}, sequential)`,
      "",
      msText(p50(latchkey.total)),
      msText(p99(latchkey.total)),
      "",
      msText(p50(reference.total)),
      msText(p99(reference.total)),
      `p99 ${ratioText(p99(latchkey.total) / p99(reference.total))}`,
      "",
      "",
    ],
    [
      "  of which authorize → consent → token",
      "",
      msText(p50(latchkey.oauth)),
      msText(p99(latchkey.oauth)),
      "",
      msText(p50(reference.oauth)),
      msText(p99(reference.oauth)),
      `p99 ${ratioText(p99(latchkey.oauth) / p99(reference.oauth))}`,
      "",
      "",
    ],
  );
  table.notes.push(
    "Round trip: sign-in (one scrypt), GET /oauth2/authorize with prompt=consent (302 to the consent page), POST /oauth2/consent, POST /oauth2/token with PKCE; one trip at a time, so the p99 is of single trips without queueing.",
  );
  return table;
}
