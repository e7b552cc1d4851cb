// Latchkey's crypto beside the reference's, live and both ways, on random inputs: whatever one
// side writes (hashes, ciphertexts, signatures, JWTs, JWEs) the other must read.
import { afterEach, describe, expect, it, vi } from "vitest";
import { betterAuth } from "better-auth";
import { memoryAdapter } from "better-auth/adapters/memory";
import * as ref from "better-auth/crypto";
import * as ours from "@latchkey/core";

// Random text mixing ASCII, Latin-1, Cyrillic, CJK, full-width forms (NFKC folds them),
// combining marks and astral emoji (surrogate pairs), so UTF-8 and normalisation differ.
const POOLS = [
  [0x20, 0x7e],
  [0xa0, 0xff],
  [0x400, 0x44f],
  [0x4e00, 0x4e50],
  [0xff01, 0xff5e],
  [0x300, 0x36f],
  [0x1f300, 0x1f64f],
] as const;

function randomInt(max: number): number {
  return crypto.getRandomValues(new Uint32Array(1))[0]! % max;
}

function randomText(maxLength: number): string {
  const length = 1 + randomInt(maxLength);
  let out = "";
  for (let i = 0; i < length; i++) {
    const [lo, hi] = POOLS[randomInt(POOLS.length)]!;
    out += String.fromCodePoint(lo + randomInt(hi - lo + 1));
  }
  return out;
}

const times = <T>(n: number, make: () => T): T[] => Array.from({ length: n }, make);

describe("password hashing", () => {
  const passwords = ["password123", ...times(3, () => randomText(24))];

  it.each(passwords)("reference hash verifies with ours: %j", async (password) => {
    const hash = await ref.hashPassword(password);
    expect(await ours.verifyPassword({ hash, password })).toBe(true);
    expect(await ours.verifyPassword({ hash, password: `${password}.` })).toBe(false);
  });

  it.each(passwords)("our hash verifies with the reference: %j", async (password) => {
    const hash = await ours.hashPassword(password);
    expect(await ref.verifyPassword({ hash, password })).toBe(true);
    expect(await ref.verifyPassword({ hash, password: `${password}.` })).toBe(false);
  });

  it("both sides NFKC-normalise the same way", async () => {
    const hash = await ref.hashPassword("ｐａｓｓ ﬁ Å");
    expect(await ours.verifyPassword({ hash, password: "pass fi Å" })).toBe(true);
  });
});

describe("symmetric encryption", () => {
  const cases = times(20, () => ({ key: randomText(40), data: randomText(200) }));

  it("reference ciphertexts decrypt with ours", async () => {
    for (const { key, data } of cases) {
      const ciphertext = await ref.symmetricEncrypt({ key, data });
      expect(await ours.symmetricDecrypt({ key, data: ciphertext }), JSON.stringify({ key, data })).toBe(
        data,
      );
    }
  });

  it("our ciphertexts decrypt with the reference", async () => {
    for (const { key, data } of cases) {
      const ciphertext = await ours.symmetricEncrypt({ key, data });
      expect(await ref.symmetricDecrypt({ key, data: ciphertext }), JSON.stringify({ key, data })).toBe(data);
    }
  });

  it("versioned envelopes cross both ways, including legacy bare hex", async () => {
    const [v1, v2, legacy] = times(3, () => randomText(30));
    const refConfig = {
      keys: new Map([
        [7, v2!],
        [3, v1!],
      ]),
      currentVersion: 7,
      legacySecret: legacy!,
    };
    const ourConfig: ours.SecretConfig = {
      current: { version: 7, value: v2! },
      all: refConfig.keys,
      legacy: legacy!,
    };
    const oldRef = { keys: new Map([[3, v1!]]), currentVersion: 3 };
    const data = randomText(80);

    const fromRef = await ref.symmetricEncrypt({ key: refConfig, data });
    const fromOurs = await ours.symmetricEncrypt({ key: ourConfig, data });
    expect(fromRef.slice(0, 5)).toBe(fromOurs.slice(0, 5));
    expect(await ours.symmetricDecrypt({ key: ourConfig, data: fromRef })).toBe(data);
    expect(await ref.symmetricDecrypt({ key: refConfig, data: fromOurs })).toBe(data);

    const oldVersion = await ref.symmetricEncrypt({ key: oldRef, data });
    expect(await ours.symmetricDecrypt({ key: ourConfig, data: oldVersion })).toBe(data);
    const bare = await ref.symmetricEncrypt({ key: legacy!, data });
    expect(await ours.symmetricDecrypt({ key: ourConfig, data: bare })).toBe(data);
    const ourBare = await ours.symmetricEncrypt({ key: legacy!, data });
    expect(await ref.symmetricDecrypt({ key: refConfig, data: ourBare })).toBe(data);
  });
});

describe("HMAC cookie signatures", () => {
  it("signCookieValue equals better-call's value.signature byte for byte", async () => {
    for (const [value, secret] of times(50, () => [randomText(40), randomText(40)] as const)) {
      const signed = await ours.signCookieValue(value, secret);
      expect(signed).toBe(`${value}.${await ref.makeSignature(value, secret)}`);
      expect(await ours.verifySignedCookieValue(signed, secret)).toBe(value);
    }
  });

  it("constantTimeEqual agrees with the reference's", () => {
    for (const [a, b] of times(200, () => [randomText(3), randomText(3)] as const)) {
      expect(ours.constantTimeEqual(a, b)).toBe(ref.constantTimeEqual(a, b));
      expect(ours.constantTimeEqual(a, a)).toBe(ref.constantTimeEqual(a, a));
    }
  });
});

describe("JWT and JWE", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("signJWT is byte-identical at the same clock and verifies both ways", async () => {
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() });
    const secret = randomText(40);
    const payload = { email: `${ours.generateId(8)}@example.com`, n: randomInt(1000), text: randomText(20) };
    const theirs = await ref.signJWT(payload, secret, 600);
    const mine = await ours.signJWT(payload, secret, 600);
    expect(mine).toBe(theirs);
    expect(await ours.verifyJWT(theirs, secret)).toMatchObject(payload);
    expect(await ref.verifyJWT(mine, secret)).toMatchObject(payload);
    expect(await ours.verifyJWT(theirs, `${secret}x`)).toBeNull();
  });

  it("JWEs decode both ways, with plain and rotated secrets", async () => {
    const salt = "better-auth-session";
    const secret = randomText(40);
    const payload = { session: { token: ours.generateId() }, text: randomText(50) };
    const theirs = await ref.symmetricEncodeJWT(payload, secret, salt, 300);
    const mine = await ours.symmetricEncodeJWT(payload, secret, salt, 300);
    // Same secret and salt → same derived key → same kid and header segment.
    expect(mine.split(".")[0]).toBe(theirs.split(".")[0]);
    expect(await ours.symmetricDecodeJWT(theirs, secret, salt)).toMatchObject(payload);
    expect(await ref.symmetricDecodeJWT(mine, secret, salt)).toMatchObject(payload);

    const [v1, v2] = [randomText(30), randomText(30)];
    const refConfig = {
      keys: new Map([
        [2, v2],
        [1, v1],
      ]),
      currentVersion: 2,
    };
    const ourConfig: ours.SecretConfig = { current: { version: 2, value: v2 }, all: refConfig.keys };
    const oldToken = await ref.symmetricEncodeJWT(payload, v1, salt, 300);
    expect(await ours.symmetricDecodeJWT(oldToken, ourConfig, salt)).toMatchObject(payload);
    const ourRotated = await ours.symmetricEncodeJWT(payload, ourConfig, salt, 300);
    expect(await ref.symmetricDecodeJWT(ourRotated, refConfig, salt)).toMatchObject(payload);
  });
});

describe("random strings", () => {
  it("draws from the same default alphabet as the reference", () => {
    const theirs = new Set(ref.generateRandomString(20_000));
    const mine = new Set(ours.generateRandomString(20_000));
    expect([...mine].sort()).toEqual([...theirs].sort());
    expect(mine.size).toBe(64);
  });
});

describe("a live reference instance", () => {
  const secret = `compat-${ours.generateId()}`;
  const db = { user: [], session: [], account: [], verification: [] } as Record<
    string,
    Record<string, unknown>[]
  >;
  const auth = betterAuth({
    database: memoryAdapter(db),
    secret,
    baseURL: "http://localhost:3000",
    emailAndPassword: { enabled: true },
    session: { cookieCache: { enabled: true } },
    logger: { disabled: true },
  });

  const cookieValue = (headers: Headers, name: string): string => {
    const header = headers.getSetCookie().find((c) => c.startsWith(`better-auth.${name}=`));
    return decodeURIComponent(header!.slice(`better-auth.${name}=`.length).split(";")[0]!);
  };

  it("signs session cookies we verify, and accepts the ones we sign", async () => {
    const email = `${ours.generateId(10).toLowerCase()}@example.com`;
    const res = await auth.api.signUpEmail({
      body: { email, password: "password123", name: "Compat" },
      asResponse: true,
    });
    expect(res.status).toBe(200);
    const signed = cookieValue(res.headers, "session_token");
    const token = await ours.verifySignedCookieValue(signed, secret);
    expect(token).toMatch(/^[A-Za-z0-9]{32}$/);

    // Our signature on the token, percent-encoded as better-call does, opens the session there.
    const ourCookie = encodeURIComponent(await ours.signCookieValue(token!, secret));
    const session = await auth.api.getSession({
      headers: new Headers({ cookie: `better-auth.session_token=${ourCookie}` }),
    });
    expect(session?.session.token).toBe(token);

    // The compact cookie cache signature is our hmacBase64Url over {...sessionData, expiresAt}.
    const data = cookieValue(res.headers, "session_data");
    const cache = JSON.parse(ours.utf8Decode(ours.base64UrlDecode(data))) as {
      session: Record<string, unknown>;
      expiresAt: number;
      signature: string;
    };
    const message = JSON.stringify({ ...cache.session, expiresAt: cache.expiresAt });
    expect(await ours.hmacBase64Url(secret, message)).toBe(cache.signature);
  });

  it("signs in with a password hash we wrote into its account row", async () => {
    const email = `${ours.generateId(10).toLowerCase()}@example.com`;
    await auth.api.signUpEmail({ body: { email, password: "password123", name: "Compat" } });
    const user = db.user!.find((u) => u.email === email)!;
    const account = db.account!.find((a) => a.userId === user.id && a.providerId === "credential")!;
    expect(await ours.verifyPassword({ hash: account.password as string, password: "password123" })).toBe(
      true,
    );

    const newPassword = randomText(20).padEnd(8, "x");
    account.password = await ours.hashPassword(newPassword);
    const res = await auth.api.signInEmail({ body: { email, password: newPassword }, asResponse: true });
    expect(res.status).toBe(200);
    const bad = await auth.api.signInEmail({ body: { email, password: "password123" }, asResponse: true });
    expect(bad.status).toBe(401);
  });
});
