import { createAuthClient as createLatchkeyClient, type ClientResult } from "@latchkey/client";
import { createAuthClient as createReferenceClient } from "better-auth/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { jarFetch } from "./support/client-fetch.ts";
import { createPair, type Pair } from "./support/instances.ts";
import { listen, type LiveServer } from "./support/server.ts";

/**
 * `@latchkey/client` against a real better-auth 1.7.6 server, for the account routes Latchkey
 * does not serve yet. Each call is made twice, with our client and with the reference's own
 * client (each with its own cookie jar, same user): the requests must be the same on the wire
 * and the `{ data, error }` results equal.
 */
interface Sent {
  method: string;
  path: string;
  query: Record<string, string>;
  body: unknown;
}

function recordingJar() {
  const jar = jarFetch();
  const sent: Sent[] = [];
  const fetch = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const request = new Request(input, init);
    const text = await request.clone().text();
    const url = new URL(request.url);
    sent.push({
      method: request.method,
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      body: text ? (JSON.parse(text) as unknown) : null,
    });
    return jar.fetch(request);
  };
  return { fetch, sent, last: (): Sent => sent[sent.length - 1]! };
}

let server: LiveServer;
let pair: Pair;
beforeAll(async () => {
  server = await listen();
  pair = await createPair({
    baseURL: server.origin,
    // A provider is configured so the OAuth starts answer with a URL; no request reaches GitHub.
    reference: {
      socialProviders: { github: { clientId: "compat-client-id", clientSecret: "compat-client-secret" } },
    },
  });
  server.use(pair.reference);
});
afterAll(async () => {
  await server.close();
  pair.close();
});

const user = { name: "Client Compat", email: "client.compat@example.com", password: "client-compat-1" };

async function signedInClients() {
  const ours = recordingJar();
  const theirs = recordingJar();
  const latchkey = createLatchkeyClient({ baseURL: server.origin, fetch: ours.fetch });
  const reference = createReferenceClient({
    baseURL: `${server.origin}/api/auth`,
    fetchOptions: { customFetchImpl: theirs.fetch },
  });
  const signUp = await latchkey.signUp.email(user);
  expect(signUp.error).toBeNull();
  expect((await reference.signIn.email({ email: user.email, password: user.password })).error).toBeNull();
  return { latchkey, reference, ours, theirs, userId: signUp.data!.user.id };
}

describe("@latchkey/client against better-auth 1.7.6", () => {
  let c: Awaited<ReturnType<typeof signedInClients>>;
  beforeAll(async () => {
    c = await signedInClients();
  });

  /** Both results of one call, and our request, after checking both requests are one on the wire. */
  async function both<T>(
    ours: () => Promise<T>,
    theirs: () => Promise<unknown>,
  ): Promise<{ ours: T; theirs: unknown; sent: Sent }> {
    const a = await ours();
    const b = await theirs();
    expect(c.ours.last()).toEqual(c.theirs.last());
    return { ours: a, theirs: b, sent: c.ours.last() };
  }

  it("listAccounts: GET /list-accounts, the credential account", async () => {
    const r = await both(
      () => c.latchkey.listAccounts(),
      () => c.reference.listAccounts(),
    );
    expect(r.sent).toEqual({ method: "GET", path: "/api/auth/list-accounts", query: {}, body: null });
    expect(r.ours.error).toBeNull();
    expect(r.ours.data).toEqual([
      {
        id: expect.stringMatching(/^[A-Za-z0-9]{32}$/),
        providerId: "credential",
        accountId: c.userId,
        userId: c.userId,
        scopes: [],
        createdAt: expect.any(Date),
        updatedAt: expect.any(Date),
      },
    ]);
    expect(r.ours).toEqual(r.theirs);
  });

  it("getAccessToken, refreshToken, accountInfo, unlinkAccount on the credential account: the reference's errors", async () => {
    const accountId = (await c.latchkey.listAccounts()).data![0]!.id;
    type Pairing = readonly [
      () => Promise<ClientResult<unknown>>,
      () => Promise<unknown>,
      "GET" | "POST",
      string,
    ];
    const calls: Pairing[] = [
      [
        () => c.latchkey.getAccessToken({ accountId }),
        () => c.reference.getAccessToken({ accountId }),
        "POST",
        "/get-access-token",
      ],
      [
        () => c.latchkey.refreshToken({ accountId }),
        () => c.reference.refreshToken({ accountId }),
        "POST",
        "/refresh-token",
      ],
      [
        () => c.latchkey.accountInfo({ accountId }),
        () => c.reference.accountInfo({ query: { accountId } }),
        "GET",
        "/account-info",
      ],
      [
        () => c.latchkey.unlinkAccount({ accountId }),
        () => c.reference.unlinkAccount({ accountId }),
        "POST",
        "/unlink-account",
      ],
    ];
    const errors: Record<string, unknown> = {};
    for (const [ours, theirs, method, path] of calls) {
      const r = await both(ours, theirs);
      expect(r.sent).toEqual({
        method,
        path: `/api/auth${path}`,
        query: method === "GET" ? { accountId } : {},
        body: method === "GET" ? null : { accountId },
      });
      expect(r.ours).toEqual(r.theirs);
      expect(r.ours.data).toBeNull();
      errors[path] = r.ours.error;
    }
    // Pinned from the reference: a credential account has no OAuth provider behind it.
    expect(errors).toEqual({
      "/get-access-token": {
        status: 400,
        statusText: "Bad Request",
        code: "PROVIDER_NOT_SUPPORTED",
        message: expect.any(String),
      },
      "/refresh-token": {
        status: 400,
        statusText: "Bad Request",
        code: "PROVIDER_NOT_SUPPORTED",
        message: expect.any(String),
      },
      "/account-info": {
        status: 400,
        statusText: "Bad Request",
        code: "PROVIDER_NOT_CONFIGURED",
        message: expect.any(String),
      },
      "/unlink-account": {
        status: 400,
        statusText: "Bad Request",
        code: "FAILED_TO_UNLINK_LAST_ACCOUNT",
        message: "You can't unlink your last account",
      },
    });
  });

  it("signIn.social and linkSocial: the provider's authorization URL", async () => {
    const args = { provider: "github", callbackURL: "/dashboard" };
    for (const [ours, theirs, path] of [
      [() => c.latchkey.signIn.social(args), () => c.reference.signIn.social(args), "/sign-in/social"],
      [() => c.latchkey.linkSocial(args), () => c.reference.linkSocial(args), "/link-social"],
    ] as const) {
      const r = await both(ours, theirs);
      expect(r.sent).toEqual({ method: "POST", path: `/api/auth${path}`, query: {}, body: args });
      expect(r.ours).toEqual({ data: { url: expect.any(String), redirect: true }, error: null });
      // state and PKCE challenge are minted per call: compare the rest of the URL.
      const strip = (result: unknown): string => {
        const u = new URL((result as { data: { url: string } }).data.url);
        for (const name of ["state", "code_challenge"]) u.searchParams.delete(name);
        return u.toString();
      };
      expect(strip(r.ours)).toBe(strip(r.theirs));
      expect(strip(r.ours)).toMatch(/^https:\/\/github\.com\/login\/oauth\/authorize\?/);
    }
  });

  it("an unknown provider, a legacy route the server does not mount, no session: errors, not throws", async () => {
    const unknown = await both(
      () => c.latchkey.signIn.social({ provider: "nowhere", callbackURL: "/" }),
      () => c.reference.signIn.social({ provider: "nowhere", callbackURL: "/" }),
    );
    expect(unknown.ours).toEqual(unknown.theirs);
    expect(unknown.ours.error).toMatchObject({ status: 404, code: "PROVIDER_NOT_FOUND" });

    const legacy = await both(
      () => c.latchkey.signIn.oauth2({ providerId: "acme", callbackURL: "/" }),
      () =>
        c.reference.$fetch("/sign-in/oauth2", {
          method: "POST",
          body: { providerId: "acme", callbackURL: "/" },
        }),
    );
    expect(legacy.ours).toEqual({ data: null, error: { status: 404, statusText: "Not Found" } });
    expect(legacy.ours).toEqual(legacy.theirs);

    const anonymous = createLatchkeyClient({ baseURL: server.origin });
    // The reference answers an HTTP caller without a session 401 with an empty body.
    expect(await anonymous.getAccessToken({ accountId: "x" })).toEqual({
      data: null,
      error: { status: 401, statusText: "Unauthorized" },
    });
  });

  it("signOut, then listAccounts: 401 like the reference client sees it", async () => {
    const out = await both(
      () => c.latchkey.signOut(),
      () => c.reference.signOut(),
    );
    expect(out.sent).toEqual({ method: "POST", path: "/api/auth/sign-out", query: {}, body: {} });
    expect(out.ours).toEqual(out.theirs);
    const after = await both(
      () => c.latchkey.listAccounts(),
      () => c.reference.listAccounts(),
    );
    expect(after.ours).toEqual(after.theirs);
    expect(after.ours.error).toMatchObject({ status: 401 });
  });
});
