import { passkey as referencePasskey } from "@better-auth/passkey";
import { passkeyClient as referencePasskeyClient } from "@better-auth/passkey/client";
import { passkey, passkeySchema } from "@latchkey/passkey";
import { installBrowserWebAuthn, SoftwareAuthenticator } from "@latchkey/test-support";
import { createAuthClient } from "better-auth/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CookieJar, responseCookies, type ParsedCookie } from "./support/cookies.ts";
import { BASE_PATH, BASE_URL, createPair, url, type Handler, type Pair } from "./support/instances.ts";
import { capture } from "./support/capture.ts";
import { jarFetch } from "./support/client-fetch.ts";
import { signUp } from "./support/flows.ts";
import { createHttpPair, type HttpPair } from "./support/http-pair.ts";
import { normalizeCaptured } from "./support/normalize.ts";
import { sendRaw, type RawRequest } from "./support/raw-http.ts";
import { restoreTables, snapshotTables } from "./support/tables.ts";
import { listen } from "./support/server.ts";

/**
 * `@latchkey/passkey` beside the reference's `@better-auth/passkey` 1.7.6 on one SQLite file
 * and one secret, driven by a software authenticator (P-256, attestation `none`): passkeys,
 * challenges and sessions made by one side work on the other, and the same scripted requests
 * get the same answers. The divergence rows of DIVERGENCES.md are asserted at the end.
 */
const ORIGIN = BASE_URL;
const PASSWORD = "password-1234";

interface Answer {
  status: number;
  json: unknown;
  cookies: ParsedCookie[];
}

/** A browser: one cookie jar, sending the page's Origin, in front of a handler that can be swapped. */
class Browser {
  readonly jar = new CookieJar();
  constructor(public handler: Handler) {}

  async send(path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Answer> {
    const all: Record<string, string> = { origin: ORIGIN, cookie: this.jar.header(), ...headers };
    const init: RequestInit =
      body === undefined
        ? { method: "GET", headers: all }
        : { method: "POST", headers: { "content-type": "application/json", ...all }, body: JSON.stringify(body) };
    const response = await this.handler(new Request(url(path), init));
    this.jar.store(response);
    const text = await response.text();
    let json: unknown = text;
    try {
      json = text ? JSON.parse(text) : null;
    } catch {
      // not JSON: keep the text
    }
    return { status: response.status, json, cookies: responseCookies(response) };
  }

  async signUp(email: string): Promise<string> {
    const answer = await this.send("/sign-up/email", { email, password: PASSWORD, name: email });
    return (answer.json as { user: { id: string } }).user.id;
  }

  /** Options from the current handler, then the attestation posted (to `verifyOn`, default the same). */
  async register(key: SoftwareAuthenticator, body: Record<string, unknown> = {}, verifyOn?: Handler): Promise<Answer> {
    const options = await this.send("/passkey/generate-register-options");
    const response = key.register(options.json as never);
    const before = this.handler;
    if (verifyOn) this.handler = verifyOn;
    try {
      return await this.send("/passkey/verify-registration", { response, ...body });
    } finally {
      this.handler = before;
    }
  }

  async signIn(key: SoftwareAuthenticator, verifyOn?: Handler, counter?: number): Promise<Answer> {
    const options = await this.send("/passkey/generate-authenticate-options");
    const response = key.assert(options.json as never, undefined, counter === undefined ? {} : { counter });
    const before = this.handler;
    if (verifyOn) this.handler = verifyOn;
    try {
      return await this.send("/passkey/verify-authentication", { response });
    } finally {
      this.handler = before;
    }
  }
}

const credentialID = (key: SoftwareAuthenticator): string => Buffer.from(key.credentials.at(-1)!.id).toString("base64url");

let pair: Pair;
beforeAll(async () => {
  pair = await createPair({
    reference: { plugins: [referencePasskey()] },
    latchkey: { plugins: [passkey()] },
  });
});
afterAll(() => pair.close());

describe("passkey: rows and challenges shared with the reference", () => {
  it("declares the reference's passkey table field for field", () => {
    expect(passkeySchema).toEqual(referencePasskey().schema);
  });

  it("createTables finds the reference's passkey table complete", async () => {
    const problems = await pair.latchkeyAuth.$context.adapter.findSchemaProblems?.();
    expect(problems ?? []).toEqual([]);
  });

  for (const [from, to] of [
    ["reference", "latchkey"],
    ["latchkey", "reference"],
  ] as const) {
    it(`a passkey registered on the ${from} signs in on the ${to}, and its counter carries over`, async () => {
      const registerer = new Browser(pair[from]);
      const userId = await registerer.signUp(`cross-${from}@example.com`);
      const key = new SoftwareAuthenticator({ origin: ORIGIN, transports: ["internal", "hybrid"], backedUp: true });
      const registered = await registerer.register(key, { name: "Cross" });
      expect(registered.status, JSON.stringify(registered.json)).toBe(200);
      key.credentials.at(-1)!.step = 1;

      const row = (pair.db.prepare("select * from passkey where credentialID = ?").all([credentialID(key)]) as Record<string, unknown>[])[0]!;
      expect(row).toMatchObject({ userId, name: "Cross", counter: 0, deviceType: "multiDevice", backedUp: 1, transports: "internal,hybrid" });
      expect(row.publicKey).toBe(Buffer.from(key.credentials.at(-1)!.cosePublicKey).toString("base64"));

      const other = new Browser(pair[to]);
      const signedIn = await other.signIn(key);
      expect(signedIn.status, JSON.stringify(signedIn.json)).toBe(200);
      expect(signedIn.json).toMatchObject({ user: { id: userId } });
      const session = await other.send("/get-session");
      expect(session.json).toMatchObject({ user: { id: userId } });
      // The session cookie one side set is honoured by the other.
      other.handler = pair[from];
      expect((await other.send("/get-session")).json).toMatchObject({ user: { id: userId } });
      // Counter 1 stored by the second side; the first refuses a replayed value, accepts a higher one.
      expect((await other.signIn(key, undefined, 1)).status).toBe(400);
      expect((await other.signIn(key)).status).toBe(200);
      expect((pair.db.prepare("select counter from passkey where credentialID = ?").all([credentialID(key)]) as { counter: number }[])[0]!.counter).toBe(3);
    });

    it(`a challenge the ${from} stored is redeemed by the ${to}`, async () => {
      const b = new Browser(pair[from]);
      const userId = await b.signUp(`challenge-${from}@example.com`);
      const key = new SoftwareAuthenticator({ origin: ORIGIN });
      const registered = await b.register(key, {}, pair[to]);
      expect(registered.status, JSON.stringify(registered.json)).toBe(200);
      expect(registered.json).toMatchObject({ userId });
      const signedIn = await new Browser(pair[from]).signIn(key, pair[to]);
      expect(signedIn.status, JSON.stringify(signedIn.json)).toBe(200);
    });
  }
});

/** Replaces what differs by construction (ids, tokens, challenges, keys, dates, the side's emails) with stable marks. */
function normalize(value: unknown, side: string): unknown {
  const text = JSON.stringify(value).replaceAll(`-${side}@`, "-side@");
  return JSON.parse(text, (key, v: unknown) => {
    if (["id", "userId", "token", "challenge", "credentialID", "publicKey", "createdAt", "updatedAt", "expiresAt"].includes(key)) {
      return typeof v === "string" && v ? "<any>" : v;
    }
    // A cookie value is `<token>.<signature>` or empty: keep only whether it is empty.
    if (key === "value" && typeof v === "string") return v === "" ? "" : "<signed>";
    return v;
  });
}

/** One scripted session of every route, successes and refusals, on one side. */
async function script(side: "reference" | "latchkey"): Promise<Record<string, unknown>> {
  const handler = pair[side];
  const steps: Record<string, unknown> = {};
  const b = new Browser(handler);
  const key = new SoftwareAuthenticator({ origin: ORIGIN, transports: ["usb"] });
  steps["register options without a session"] = await b.send("/passkey/generate-register-options");
  steps["list without a session"] = await b.send("/passkey/list-user-passkeys");
  steps["delete without a session"] = await b.send("/passkey/delete-passkey", { id: "x" });
  await b.signUp(`wire-${side}@example.com`);
  steps["verify registration without a challenge"] = await b.send("/passkey/verify-registration", { response: {} });
  steps["register options"] = await b.send("/passkey/generate-register-options?name=Key&authenticatorAttachment=platform");
  const options = steps["register options"] as Answer;
  steps["verify registration"] = await b.send("/passkey/verify-registration", {
    response: key.register(options.json as never),
    name: "  Key  ",
  });
  steps["register options, one passkey"] = await b.send("/passkey/generate-register-options?authenticatorAttachment=cross-platform");
  steps["register options, bad attachment"] = await b.send("/passkey/generate-register-options?authenticatorAttachment=usb");
  steps["list"] = await b.send("/passkey/list-user-passkeys");
  const id = ((steps["list"] as Answer).json as Array<{ id: string }>)[0]!.id;
  steps["update, blank name"] = await b.send("/passkey/update-passkey", { id, name: "   " });
  steps["update, unknown id"] = await b.send("/passkey/update-passkey", { id: "unknown", name: "n" });
  steps["update"] = await b.send("/passkey/update-passkey", { id, name: " Renamed " });
  steps["delete, empty id"] = await b.send("/passkey/delete-passkey", { id: "" });
  steps["delete, unknown id"] = await b.send("/passkey/delete-passkey", { id: "unknown" });
  steps["authenticate options, signed in"] = await b.send("/passkey/generate-authenticate-options");
  steps["verify authentication, registration challenge"] = await (async () => {
    await b.send("/passkey/generate-register-options");
    return b.send("/passkey/verify-authentication", { response: { id: credentialID(key) } });
  })();
  const anonymous = new Browser(handler);
  steps["verify authentication without a challenge"] = await anonymous.send("/passkey/verify-authentication", { response: { id: "x" } });
  steps["authenticate options"] = await anonymous.send("/passkey/generate-authenticate-options");
  const request = (steps["authenticate options"] as Answer).json as { challenge: string };
  steps["verify authentication, unknown credential"] = await anonymous.send("/passkey/verify-authentication", {
    response: { ...key.assert(request), id: "AAAA", rawId: "AAAA" },
  });
  await anonymous.send("/passkey/generate-authenticate-options");
  steps["verify authentication, other origin"] = await (async () => {
    const again = (await anonymous.send("/passkey/generate-authenticate-options")).json as { challenge: string };
    return anonymous.send("/passkey/verify-authentication", { response: key.assert(again, undefined, { origin: "https://evil.example" }) });
  })();
  steps["verify authentication without Origin"] = await anonymous.send("/passkey/verify-authentication", { response: { id: "x" } }, { origin: "" });
  const fresh = (await anonymous.send("/passkey/generate-authenticate-options")).json as { challenge: string };
  steps["verify authentication"] = await anonymous.send("/passkey/verify-authentication", { response: key.assert(fresh) });
  const intruder = new Browser(handler);
  await intruder.signUp(`intruder-${side}@example.com`);
  steps["delete, another user's"] = await intruder.send("/passkey/delete-passkey", { id });
  steps["update, another user's"] = await intruder.send("/passkey/update-passkey", { id, name: "mine" });
  steps["delete"] = await b.send("/passkey/delete-passkey", { id });
  steps["list, empty"] = await b.send("/passkey/list-user-passkeys");
  return normalize(steps, side) as Record<string, unknown>;
}

describe("passkey: the same requests get the same answers", () => {
  let reference: Record<string, unknown>;
  let latchkey: Record<string, unknown>;
  beforeAll(async () => {
    reference = await script("reference");
    latchkey = await script("latchkey");
  });

  it("pins the reference's answers", () => {
    expect(reference["verify registration"]).toMatchObject({ status: 200, json: { name: "Key", transports: "usb", counter: 0 } });
    expect(reference["verify authentication"]).toMatchObject({ status: 200 });
    expect(reference["verify authentication, unknown credential"]).toMatchObject({ status: 401, json: { code: "PASSKEY_NOT_FOUND" } });
  });

  it("answers every step alike", () => {
    for (const step of Object.keys(reference)) {
      expect(latchkey[step], step).toEqual(reference[step]);
    }
  });
});

describe("passkey: divergences (DIVERGENCES.md rows 83-85, 87)", () => {
  /** A signed-in browser on each side. */
  async function signedIn(side: "reference" | "latchkey", name: string): Promise<Browser> {
    const b = new Browser(pair[side]);
    await b.signUp(`${name}-${side}@example.com`);
    return b;
  }

  it("row 87: a verified attestation whose unsigned transports are not a list — the reference answers 500, Latchkey stores none", async () => {
    const answers: Record<string, Answer> = {};
    for (const side of ["reference", "latchkey"] as const) {
      const b = await signedIn(side, "row304");
      const options = await b.send("/passkey/generate-register-options");
      const response = new SoftwareAuthenticator({ origin: ORIGIN }).register(options.json as never) as { response: Record<string, unknown> };
      response.response.transports = "usb";
      answers[side] = await b.send("/passkey/verify-registration", { response });
    }
    expect(answers.reference).toMatchObject({ status: 500, json: { code: "FAILED_TO_VERIFY_REGISTRATION" } });
    expect(answers.latchkey).toMatchObject({ status: 200, json: { transports: "" } });
  });

  it("row 83: an attestation the verifier refuses — the reference answers 500, Latchkey 400, both FAILED_TO_VERIFY_REGISTRATION", async () => {
    const answers: Record<string, Answer> = {};
    for (const side of ["reference", "latchkey"] as const) {
      const b = await signedIn(side, "row300");
      await b.send("/passkey/generate-register-options");
      answers[side] = await b.send("/passkey/verify-registration", { response: { id: "x", response: {} } });
    }
    const body = { code: "FAILED_TO_VERIFY_REGISTRATION", message: "Failed to verify registration" };
    expect(answers.reference).toMatchObject({ status: 500, json: body });
    expect(answers.latchkey).toMatchObject({ status: 400, json: body });
  });

  it("row 84: an assertion whose id is not a string — the reference answers 500 without a body, Latchkey 401 PASSKEY_NOT_FOUND", async () => {
    const answers: Record<string, Answer> = {};
    for (const side of ["reference", "latchkey"] as const) {
      const b = new Browser(pair[side]);
      await b.send("/passkey/generate-authenticate-options");
      answers[side] = await b.send("/passkey/verify-authentication", { response: { id: {} } });
    }
    expect(answers.reference).toMatchObject({ status: 500, json: null });
    expect(answers.latchkey).toMatchObject({ status: 401, json: { code: "PASSKEY_NOT_FOUND", message: "Passkey not found" } });
  });

  it("row 85: a passkey stored without transports — the reference announces transports [\"\"], Latchkey none", async () => {
    const listed: Record<string, unknown> = {};
    for (const side of ["reference", "latchkey"] as const) {
      const b = await signedIn(side, "row302");
      const key = new SoftwareAuthenticator({ origin: ORIGIN, transports: [] });
      expect((await b.register(key)).status).toBe(200);
      const id = credentialID(key);
      const creation = (await b.send("/passkey/generate-register-options")).json as { excludeCredentials: unknown[] };
      const request = (await b.send("/passkey/generate-authenticate-options")).json as { allowCredentials: unknown[] };
      listed[side] = { exclude: creation.excludeCredentials, allow: request.allowCredentials, id };
    }
    const ref = listed.reference as { id: string };
    const lk = listed.latchkey as { id: string };
    expect(listed.reference).toEqual({ id: ref.id, exclude: [{ id: ref.id, transports: [""], type: "public-key" }], allow: [{ id: ref.id, transports: [""], type: "public-key" }] });
    expect(listed.latchkey).toEqual({ id: lk.id, exclude: [{ id: lk.id, type: "public-key" }], allow: [{ id: lk.id, type: "public-key" }] });
  });
});

describe("passkey: the reference's passkeyClient(), unchanged, over real HTTP", () => {
  /**
   * The flow through `authClient.passkey.*` and `authClient.signIn.passkey`, with the browser's
   * WebAuthn API given to Node by `installBrowserWebAuthn` (so `@simplewebauthn/browser` runs
   * as in a page); every `{ data, error }`, normalised.
   */
  async function clientFlow(side: "reference" | "latchkey"): Promise<unknown> {
    const server = await listen();
    const sides = await createPair({
      baseURL: server.origin,
      reference: { plugins: [referencePasskey()] },
      latchkey: { plugins: [passkey()] },
    });
    server.use(sides[side]);
    const key = new SoftwareAuthenticator({ origin: server.origin });
    const uninstall = installBrowserWebAuthn(key);
    try {
      const jar = jarFetch();
      const auth = createAuthClient({
        baseURL: `${server.origin}${BASE_PATH}`,
        fetchOptions: {
          // A page's fetch sends its Origin; Node's does not.
          customFetchImpl: (input, init) => {
            const headers = new Headers(init?.headers);
            headers.set("origin", server.origin);
            return jar.fetch(input, { ...init, headers });
          },
        },
        plugins: [referencePasskeyClient()],
      });
      const steps: Record<string, unknown> = {};
      steps.signUp = (await auth.signUp.email({ email: "client@example.com", password: PASSWORD, name: "C" })).error;
      steps.addPasskey = await auth.passkey.addPasskey({ name: "Laptop" });
      steps.addAgain = await auth.passkey.addPasskey({ name: "Again" });
      steps.list = await auth.passkey.listUserPasskeys();
      await auth.signOut();
      steps.signedOut = (await auth.getSession()).data;
      steps.signIn = await auth.signIn.passkey();
      steps.session = (await auth.getSession()).data?.user.email;
      const id = ((steps.list as { data: Array<{ id: string }> }).data ?? [])[0]?.id ?? "none";
      steps.update = await auth.passkey.updatePasskey({ id, name: "Work" });
      steps.updateBlank = await auth.passkey.updatePasskey({ id, name: " " });
      steps.delete = await auth.passkey.deletePasskey({ id });
      steps.deleteAgain = await auth.passkey.deletePasskey({ id });
      steps.calls = jar.calls;
      return normalize(steps, side);
    } finally {
      uninstall();
      sides.close();
      await server.close();
    }
  }

  it("gives the same results against Latchkey as against the reference", async () => {
    const reference = await clientFlow("reference");
    const latchkey = await clientFlow("latchkey");
    expect(reference).toMatchObject({
      addPasskey: { data: { name: "Laptop" }, error: null },
      addAgain: { data: null, error: { code: "ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED" } },
      signIn: { error: null },
      session: "client@example.com",
      delete: { data: { status: true } },
    });
    expect(latchkey).toEqual(reference);
  });
});

describe("passkey: POST routes without a body, over HTTP (the reference behind its Node adapter)", () => {
  let h: HttpPair;
  let cookie: string;
  beforeAll(async () => {
    h = await createHttpPair({ originChecks: true, reference: { plugins: [referencePasskey()] }, latchkey: { plugins: [passkey()] } });
    cookie = (await signUp(h.pair.reference, { name: "Ada", email: "ada-bodyless@example.com", password: PASSWORD })).cookie;
  });
  afterAll(() => h.close());

  const ROUTES = ["/passkey/verify-registration", "/passkey/verify-authentication", "/passkey/delete-passkey", "/passkey/update-passkey"];
  for (const shape of ["no-length", "zero-length"] as const) {
    it(`${shape}: the same answer on every passkey POST route, with and without a session`, async () => {
      const seen: number[] = [];
      for (const headers of [{ origin: BASE_URL }, { cookie, origin: BASE_URL }] as Record<string, string>[]) {
        for (const route of ROUTES) {
          const raw: RawRequest = { method: "POST", path: `${BASE_PATH}${route}`, headers, shape };
          const snapshot = snapshotTables(h.pair.db);
          const reference = normalizeCaptured(await capture(await sendRaw(h.reference, raw)));
          restoreTables(h.pair.db, snapshot);
          const latchkey = normalizeCaptured(await capture(await sendRaw(h.latchkey, raw)));
          restoreTables(h.pair.db, snapshot);
          expect(latchkey, `POST ${route}`).toEqual(reference);
          seen.push(reference.status);
        }
      }
      // Pinned: body validation answers first on both, with or without a session.
      expect(seen).toEqual(Array(8).fill(400));
    });
  }
});
