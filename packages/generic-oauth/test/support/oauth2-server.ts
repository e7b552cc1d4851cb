import { createHash, randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";

/** One request the server answered, for assertions. */
export interface SeenRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingMessage["headers"];
  form: URLSearchParams;
}

/** A profile route: answers JSON for the bearer (or `OAuth`) token it was called with. */
export type ProfileRoute = (request: SeenRequest, accessToken: string | undefined) => unknown;

/** A plain OAuth 2.0 provider on 127.0.0.1 (no OpenID): what the non-OIDC presets talk to. */
export interface OAuth2Server {
  url: string;
  requests: SeenRequest[];
  /** Extra fields of every token response (e.g. `id_token`, no `expires_in`). */
  tokenExtras: Record<string, unknown>;
  /** Requests to one path. */
  seen(path: string): SeenRequest[];
  /** Whether the server issued this access token and it is still live. */
  isAccessToken(token: string): boolean;
  close(): Promise<void>;
}

const b64url = (buffer: Buffer) => buffer.toString("base64url");

/**
 * Starts the server. `/authorize` approves at once (the user is whoever the test says) and
 * redirects to `redirect_uri` with a code; `/token` checks that code's redirect URI, client
 * and PKCE verifier (RFC 7636 §4.6) and issues opaque tokens, rotating on refresh; every other
 * path is a profile route from `routes`, answered 401 for an unknown access token.
 */
export async function startOAuth2Server(routes: Record<string, ProfileRoute>): Promise<OAuth2Server> {
  const codes = new Map<string, { redirectURI: string; challenge: string | null; clientId: string }>();
  const accessTokens = new Set<string>();
  const refreshTokens = new Set<string>();
  const requests: SeenRequest[] = [];
  const tokenExtras: Record<string, unknown> = {};
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const url = new URL(req.url ?? "/", "http://127.0.0.1");
      const seen: SeenRequest = {
        method: req.method ?? "GET",
        path: url.pathname,
        query: url.searchParams,
        headers: req.headers,
        form: new URLSearchParams(Buffer.concat(chunks).toString()),
      };
      requests.push(seen);
      const json = (status: number, body: unknown) => {
        res.writeHead(status, { "content-type": "application/json" });
        res.end(JSON.stringify(body));
      };
      if (url.pathname === "/authorize") {
        const code = b64url(randomBytes(16));
        const redirectURI = url.searchParams.get("redirect_uri") ?? "";
        codes.set(code, {
          redirectURI,
          challenge: url.searchParams.get("code_challenge"),
          clientId: url.searchParams.get("client_id") ?? "",
        });
        const back = new URL(redirectURI);
        back.searchParams.set("code", code);
        back.searchParams.set("state", url.searchParams.get("state") ?? "");
        res.writeHead(302, { location: back.href });
        res.end();
        return;
      }
      if (url.pathname === "/token") {
        const form = seen.form;
        const issue = () => {
          const access = b64url(randomBytes(16));
          const refresh = b64url(randomBytes(16));
          accessTokens.add(access);
          refreshTokens.add(refresh);
          return { access_token: access, refresh_token: refresh, token_type: "bearer", ...tokenExtras };
        };
        if (form.get("grant_type") === "refresh_token") {
          const old = form.get("refresh_token") ?? "";
          if (!refreshTokens.delete(old)) return json(400, { error: "invalid_grant" });
          return json(200, issue());
        }
        const grant = codes.get(form.get("code") ?? "");
        codes.delete(form.get("code") ?? "");
        if (!grant || grant.redirectURI !== form.get("redirect_uri"))
          return json(400, { error: "invalid_grant" });
        const verifier = form.get("code_verifier");
        if (grant.challenge) {
          const expected = verifier ? b64url(createHash("sha256").update(verifier).digest()) : "";
          if (expected !== grant.challenge) return json(400, { error: "invalid_grant" });
        } else if (verifier) {
          return json(400, { error: "invalid_request" });
        }
        return json(200, issue());
      }
      // `/prefix/*` routes match any path below the prefix (HubSpot puts the token in the path).
      const prefixed = Object.keys(routes).find(
        (key) => key.endsWith("/*") && url.pathname.startsWith(key.slice(0, -1)),
      );
      const route = routes[url.pathname] ?? (prefixed ? routes[prefixed] : undefined);
      if (!route) return json(404, { error: "not_found" });
      const auth = req.headers.authorization ?? "";
      const token = /^(Bearer|OAuth) /.test(auth) ? auth.slice(auth.indexOf(" ") + 1) : undefined;
      // Routes that take the token elsewhere (HubSpot: in the path) check it themselves.
      if (token !== undefined && !accessTokens.has(token)) return json(401, { error: "invalid_token" });
      const body = route(seen, token);
      return body === undefined ? json(401, { error: "invalid_token" }) : json(200, body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    requests,
    tokenExtras,
    seen: (path) => requests.filter((r) => r.path === path),
    isAccessToken: (token) => accessTokens.has(token),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** An access token from the stand-in, by its own authorization-code flow (no PKCE). */
export async function issueAccessToken(server: OAuth2Server): Promise<string> {
  const redirectURI = "http://127.0.0.1/cb";
  const authorize = await fetch(
    `${server.url}/authorize?client_id=c&state=s&redirect_uri=${encodeURIComponent(redirectURI)}`,
    {
      redirect: "manual",
    },
  );
  const code = new URL(authorize.headers.get("location") ?? "").searchParams.get("code") ?? "";
  const body = new URLSearchParams({ grant_type: "authorization_code", code, redirect_uri: redirectURI });
  const tokens = (await (await fetch(`${server.url}/token`, { method: "POST", body })).json()) as {
    access_token: string;
  };
  return tokens.access_token;
}
