import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  Browser,
  DATABASE_KINDS,
  faultyAdapter,
  type FaultSwitch,
  rowCounts,
  testAuth,
  type DatabaseKind,
  type TestIdP,
} from "@latchkey/test-support";
import {
  APIError,
  callbackErrorRedirect,
  defaultErrorURL,
  endpoint,
  memoryAdapter,
  parseState,
  type Adapter,
  type IdentifiedAccount,
  type LatchkeyOptions,
  type SelectedOAuthUser,
} from "../../src/index.ts";
import { idpProvider, socialInstance, startSignIn, startTestIdP, AUTH, CALLBACK } from "../support/social.ts";

let idp: TestIdP;
beforeAll(async () => {
  idp = await startTestIdP();
});
afterAll(() => idp.close());

type Select = (identified: IdentifiedAccount, database: Adapter) => Promise<SelectedOAuthUser | undefined>;

/** A plugin callback completing the flow with `selectUserInTransaction` (as SSO's `resolveUser`). */
const selectingPlugin = (select: { current: Select }) => ({
  id: "selecting",
  endpoints: {
    selectingCallback: endpoint("/selecting-callback/:id", { method: "GET" }, async (ctx) => {
      const query = ctx.query as unknown as { code: string; state: string; iss?: string };
      const state = await parseState(ctx, query.state);
      const fail = (code: string, description?: string) =>
        callbackErrorRedirect(ctx, state.errorURL ?? defaultErrorURL(ctx), code, description);
      const provider = idpProvider(idp);
      return provider.flow!.completeCallback(ctx, provider, {
        state,
        code: query.code,
        iss: query.iss,
        redirectURI: CALLBACK,
        fail,
        selectUserInTransaction: (identified, database) => select.current(identified, database),
      });
    }),
  },
});

async function instance(db: DatabaseKind, select: { current: Select }, extra: Partial<LatchkeyOptions> = {}) {
  const t = await testAuth(
    {
      emailAndPassword: { enabled: true },
      socialProviders: { idp: idpProvider(idp) },
      plugins: [selectingPlugin(select)],
      ...extra,
    },
    { db },
  );
  return t;
}

/** The whole redirect flow for `sub`, through the selecting callback; the final URL. */
async function signIn(t: { auth: { handler: (r: Request) => Promise<Response> } }, sub: string) {
  const browser = new Browser("http://localhost:3000", t.auth.handler);
  idp.login(sub);
  const url = await startSignIn(browser);
  const { location } = await browser.follow(url, {
    rewrite: (hop) =>
      hop.href.startsWith(CALLBACK) ? hop.href.replace("/callback/idp", "/selecting-callback/idp") : hop,
  });
  return { url: new URL(location), browser };
}

const marker = (database: Adapter) =>
  database.create({
    model: "verification",
    data: {
      id: "marker",
      identifier: "marker",
      value: "x",
      expiresAt: new Date(Date.now() + 60_000),
      createdAt: new Date(),
      updatedAt: new Date(),
    },
  });

describe.each(DATABASE_KINDS)("transactional OAuth sign-in on %s", (db) => {
  it("a selector that writes and then throws leaves nothing written; a refusing hook after the user rolls back the user", async () => {
    const select: { current: Select } = {
      current: async (_identified, database) => {
        await marker(database);
        throw new APIError("FORBIDDEN", { code: "not_allowed", message: "No" });
      },
    };
    let refuseSession = false;
    const t = await instance(db, select, {
      databaseHooks: { session: { create: { before: async () => (refuseSession ? false : undefined) } } },
    });
    try {
      const before = await rowCounts(t.auth);
      const refused = await signIn(t, "alice-sub");
      expect(refused.url.href).toContain("error=not_allowed");
      expect(await rowCounts(t.auth)).toEqual(before);

      // The selector's write and the new user and account are rolled back with the refused session.
      select.current = async (_identified, database) => {
        await marker(database);
        return undefined;
      };
      refuseSession = true;
      const noSession = await signIn(t, "alice-sub");
      expect(noSession.url.searchParams.get("error")).toBe("unable_to_create_session");
      expect(await rowCounts(t.auth)).toEqual(before);

      // Accepted: everything is committed together.
      refuseSession = false;
      const done = await signIn(t, "alice-sub");
      expect(done.url.pathname).toBe("/dashboard");
      const after = await rowCounts(t.auth);
      expect(after.user).toBe(before.user! + 1);
      expect(after.account).toBe(before.account! + 1);
      expect(after.session).toBe(before.session! + 1);
      expect(after.verification).toBe(before.verification! + 1);
    } finally {
      await t.close();
    }
  });

  it("a selected user gets the account and the session; an account owned by another is a conflict", async () => {
    const select: { current: Select } = { current: async () => undefined };
    const t = await instance(db, select);
    try {
      const chosen = await t.auth.api.signUpEmail({
        body: { email: "chosen@example.com", password: "password-1234", name: "Chosen" },
      });
      const chosenId = (chosen as { user: { id: string } }).user.id;
      select.current = async (identified, database) => {
        // The selector reads through the transaction's adapter.
        const row = await database.findOne<{ id: string }>({
          model: "user",
          where: [{ field: "id", value: chosenId }],
        });
        expect(identified.account.accountId).toBe("bob-sub");
        return { userId: row!.id, profile: "preserve" };
      };
      const done = await signIn(t, "bob-sub");
      expect(done.url.pathname).toBe("/dashboard");
      const account = await t.auth.$context.adapter.findOne<{ userId: string }>({
        model: "account",
        where: [{ field: "accountId", value: "bob-sub" }],
      });
      expect(account?.userId).toBe(chosenId);
      const session = (await (await done.browser.send(`${AUTH}/get-session`)).json()) as {
        user: { id: string; name: string; email: string };
      };
      expect(session.user).toMatchObject({ id: chosenId, name: "Chosen", email: "chosen@example.com" });

      // The same identity selected for a different user: refused, nothing written.
      const other = await t.auth.api.signUpEmail({
        body: { email: "other@example.com", password: "password-1234", name: "Other" },
      });
      const otherId = (other as { user: { id: string } }).user.id;
      select.current = async () => ({ userId: otherId, profile: "update" });
      const before = await rowCounts(t.auth);
      const conflict = await signIn(t, "bob-sub");
      expect(conflict.url.searchParams.get("error")).toBe("account_ownership_conflict");
      expect(await rowCounts(t.auth)).toEqual(before);

      select.current = async () => ({ userId: "no-such-user", profile: "preserve" });
      const unknown = await signIn(t, "alice-sub");
      expect(unknown.url.searchParams.get("error")).toBe("user_not_found");
      expect(await rowCounts(t.auth)).toEqual(before);

      // Another user holding the provider's email does not stand in the way of the selection.
      await t.auth.api.signUpEmail({
        body: { email: "alice@example.com", password: "password-1234", name: "Local Alice" },
      });
      select.current = async () => ({ userId: chosenId, profile: "preserve" });
      const chosenAgain = await signIn(t, "alice-sub");
      expect(chosenAgain.url.pathname).toBe("/dashboard");
      const aliceAccount = await t.auth.$context.adapter.findOne<{ userId: string }>({
        model: "account",
        where: [{ field: "accountId", value: "alice-sub" }],
      });
      expect(aliceAccount?.userId).toBe(chosenId);
    } finally {
      await t.close();
    }
  });
  it("the verification mail of a new user goes out after the commit, and not at all after a rollback", async () => {
    const select: { current: Select } = { current: async () => undefined };
    let refuseSession = true;
    const mailed: { email: string; stored: boolean }[] = [];
    const t: Awaited<ReturnType<typeof instance>> = await instance(db, select, {
      databaseHooks: { session: { create: { before: async () => (refuseSession ? false : undefined) } } },
      emailVerification: {
        sendOnSignUp: true,
        sendVerificationEmail: async ({ user }) => {
          // Read outside the sign-in's transaction: the user is there only once it committed.
          const stored = await t.auth.$context.adapter.findOne({
            model: "user",
            where: [{ field: "email", value: user.email }],
          });
          mailed.push({ email: user.email, stored: stored !== null });
        },
      },
    });
    try {
      const refused = await signIn(t, "unverified-sub");
      expect(refused.url.searchParams.get("error")).toBe("unable_to_create_session");
      expect(mailed).toEqual([]);
      refuseSession = false;
      const done = await signIn(t, "unverified-sub");
      expect(done.url.pathname).toBe("/dashboard");
      expect(mailed).toEqual([{ email: "victim@example.com", stored: true }]);
    } finally {
      await t.close();
    }
  });
});

describe("transactional OAuth sign-in preconditions", () => {
  it("an adapter without transactions (as D1) and sessions in secondary storage: a named refusal, nothing written, the selector never asked", async () => {
    let asked = 0;
    const select: { current: Select } = {
      current: async () => {
        asked += 1;
        return undefined;
      },
    };
    const faults: FaultSwitch = { fault: { method: "transaction" }, failed: [] };
    const store: Record<string, Record<string, unknown>[]> = {};
    const t = socialInstance(idp, {
      database: faultyAdapter(memoryAdapter(store), faults),
      logger: { disabled: true },
      plugins: [selectingPlugin(select)],
    });
    const noTransactions = await signIn(t, "alice-sub");
    expect(noTransactions.url.searchParams.get("error")).toBe("OAUTH_SIGN_IN_TRANSACTION_UNAVAILABLE");
    expect([store.user ?? [], store.account ?? [], store.session ?? []]).toEqual([[], [], []]);

    const kept = new Map<string, string>();
    const cached = socialInstance(idp, {
      plugins: [selectingPlugin(select)],
      secondaryStorage: {
        get: (key: string) => kept.get(key) ?? null,
        set: (key: string, value: string) => void kept.set(key, value),
        delete: (key: string) => void kept.delete(key),
      },
    });
    const refused = await signIn(cached, "alice-sub");
    expect(refused.url.searchParams.get("error")).toBe(
      "OAUTH_SIGN_IN_TRANSACTION_REQUIRES_DATABASE_SESSIONS",
    );
    expect(cached.store.user ?? []).toEqual([]);
    expect(asked).toBe(0);
  });
});
