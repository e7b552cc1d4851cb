import { describe, expect, it } from "vitest";
import type { LatchkeyOptions } from "../../src/index.ts";
import { BASE, limitedInstance } from "../rate-limit/instance.ts";

// Brute force through spelling: `/sign%2Din/email` used to reach the sign-in handler (Hono
// decoded it) while the rate limit and disabledPaths read the undecoded path, so every
// spelling had its own counter. The reference routes on the undecoded path: such spellings
// are 404 there, and now here.

const user = { name: "Ada", email: "ada@example.com", password: "password-1234" };
const wrong = JSON.stringify({ email: user.email, password: "wrong-password" });
const hex = (char: string, lower = false): string => {
  const code = `%${char.charCodeAt(0).toString(16).toUpperCase().padStart(2, "0")}`;
  return lower ? code.toLowerCase() : code;
};

/** Every spelling of `/api/auth/sign-in/email` with one unreserved character percent-encoded. */
function oneEncoded(): string[] {
  const path = "/api/auth/sign-in/email";
  const out: string[] = [];
  for (let i = 0; i < path.length; i++) {
    if (path[i] === "/") continue;
    out.push(`${path.slice(0, i)}${hex(path[i]!)}${path.slice(i + 1)}`);
    if (/[a-z]/i.test(hex(path[i]!)))
      out.push(`${path.slice(0, i)}${hex(path[i]!, true)}${path.slice(i + 1)}`);
  }
  return out;
}

const otherSpellings = [
  "/api/auth/sign-in%2Femail",
  "/api/auth%2Fsign-in/email",
  "/api/auth/sign%252Din/email",
  "/api/auth/%2573ign-in/email",
  `/api/auth/${[..."sign-in"].map((c) => hex(c)).join("")}/email`,
  "/api/auth/Sign-In/email",
  "/api/auth//sign-in/email",
  "/api/auth/sign-in//email",
  "/api/auth/sign-in/email//",
];

const encoded = [...oneEncoded(), ...otherSpellings];

async function signedUp(options: Partial<LatchkeyOptions> = {}) {
  const t = limitedInstance({ ...options, rateLimit: { max: 100, ...options.rateLimit } });
  const res = await t.auth.handler(
    new Request(`${BASE}/api/auth/sign-up/email`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-forwarded-for": "198.51.100.9" },
      body: JSON.stringify(user),
    }),
  );
  expect(res.status).toBe(200);
  const post = (path: string) =>
    t.auth.handler(
      new Request(`${BASE}${path}`, {
        method: "POST",
        headers: { "content-type": "application/json", "x-forwarded-for": "203.0.113.7" },
        body: wrong,
      }),
    );
  return { ...t, post };
}

describe("percent-encoded and other spellings of a route", () => {
  it(`route nowhere (404, never the sign-in handler): ${encoded.length} spellings`, async () => {
    const t = await signedUp({ rateLimit: { enabled: false } });
    for (const path of encoded) expect((await t.post(path)).status, path).toBe(404);
    // The canonical spelling does reach it: 401, not 404.
    expect((await t.post("/api/auth/sign-in/email")).status).toBe(401);
  });

  it("cannot add password guesses past the sign-in limit (3 per 10 s)", async () => {
    const t = await signedUp();
    const canonical = [];
    for (let i = 0; i < 3; i++) canonical.push((await t.post("/api/auth/sign-in/email")).status);
    expect(canonical).toEqual([401, 401, 401]);
    for (const path of encoded) expect([404, 429], path).toContain((await t.post(path)).status);
    expect((await t.post("/api/auth/sign-in/email")).status).toBe(429);
  });

  it("dot segments, encoded or not, are resolved by the URL parser before anyone reads the path", async () => {
    const t = await signedUp();
    const spellings = [
      "/api/auth/%2e/sign-in/email",
      "/api/auth/x/%2E%2e/sign-in/email",
      "/api/auth/./sign-in/email",
    ];
    for (const path of spellings) expect((await t.post(path)).status, path).toBe(401);
    expect((await t.post("/api/auth/sign-in/email")).status).toBe(429);
  });

  it("disabledPaths cover every spelling that routes, and the others are 404 anyway", async () => {
    const t = await signedUp({ disabledPaths: ["/sign-in/email"] });
    for (const path of ["/api/auth/sign-in/email", "/api/auth/%2e/sign-in/email", ...encoded]) {
      const res = await t.post(path);
      expect(res.status, path).toBe(404);
    }
  });
});

describe("a trailing slash with advanced.skipTrailingSlashes", () => {
  const skip = { advanced: { skipTrailingSlashes: true } } satisfies Partial<LatchkeyOptions>;

  it("routes, and counts on the same sign-in counter", async () => {
    const t = await signedUp(skip);
    expect((await t.post("/api/auth/sign-in/email/")).status).toBe(401);
    expect((await t.post("/api/auth/sign-in/email/")).status).toBe(401);
    expect((await t.post("/api/auth/sign-in/email")).status).toBe(401);
    expect((await t.post("/api/auth/sign-in/email/")).status).toBe(429);
    expect((await t.post("/api/auth/sign-in/email")).status).toBe(429);
  });

  it("is covered by disabledPaths", async () => {
    const t = await signedUp({ ...skip, disabledPaths: ["/sign-in/email"] });
    for (const path of ["/api/auth/sign-in/email", "/api/auth/sign-in/email/", "/api/auth/sign-in/email//"]) {
      expect((await t.post(path)).status, path).toBe(404);
    }
  });

  it("without the option answers 404", async () => {
    const t = await signedUp();
    expect((await t.post("/api/auth/sign-in/email/")).status).toBe(404);
  });
});
