import { describe, expect, it } from "vitest";
import { testInstance } from "./support/instance.ts";

const valid = { name: "Ada", email: "ada@example.com", password: "password123" };

const cases: Array<{
  name: string;
  body: string;
  type?: string;
  status: number;
  code: string;
  message?: string;
}> = [
  {
    name: "malformed JSON",
    body: "{nope",
    status: 400,
    code: "BAD_REQUEST",
    message: "Invalid JSON in request body",
  },
  {
    name: "JSON array",
    body: "[]",
    status: 400,
    code: "VALIDATION_ERROR",
    message:
      "[body] Invalid input: expected object, received array; [body] Invalid input: expected record, received array",
  },
  { name: "JSON null", body: "null", status: 400, code: "VALIDATION_ERROR" },
  {
    name: "missing fields",
    body: "{}",
    status: 400,
    code: "VALIDATION_ERROR",
    message:
      "[body.name] Invalid input: expected string, received undefined; [body.email] Invalid input: expected string, received undefined; [body.password] Invalid input: expected string, received undefined",
  },
  {
    name: "wrong types",
    body: JSON.stringify({ ...valid, name: 5, password: ["x"] }),
    status: 400,
    code: "VALIDATION_ERROR",
    message:
      "[body.name] Invalid input: expected string, received number; [body.password] Invalid input: expected string, received array",
  },
  {
    name: "bad email",
    body: JSON.stringify({ ...valid, email: "not-an-email" }),
    status: 400,
    code: "VALIDATION_ERROR",
    message: "[body.email] Invalid email address",
  },
  {
    name: "empty password",
    body: JSON.stringify({ ...valid, password: "" }),
    status: 400,
    code: "VALIDATION_ERROR",
    message: "[body.password] Too small: expected string to have >=1 characters",
  },
  {
    name: "short password",
    body: JSON.stringify({ ...valid, password: "short" }),
    status: 400,
    code: "PASSWORD_TOO_SHORT",
  },
  {
    name: "long password",
    body: JSON.stringify({ ...valid, password: "x".repeat(129) }),
    status: 400,
    code: "PASSWORD_TOO_LONG",
  },
  {
    name: "rememberMe not boolean",
    body: JSON.stringify({ ...valid, rememberMe: "yes" }),
    status: 400,
    code: "VALIDATION_ERROR",
  },
  {
    name: "text/plain",
    body: JSON.stringify(valid),
    type: "text/plain",
    status: 415,
    code: "UNSUPPORTED_MEDIA_TYPE",
    message:
      'Content-Type "text/plain" is not allowed. Allowed types: application/x-www-form-urlencoded, application/json',
  },
  {
    name: "no content type",
    body: JSON.stringify(valid),
    type: "",
    status: 415,
    code: "UNSUPPORTED_MEDIA_TYPE",
  },
  {
    name: "oversized body",
    body: JSON.stringify({ ...valid, name: "x".repeat(2 * 1024 * 1024) }),
    status: 413,
    code: "PAYLOAD_TOO_LARGE",
  },
];

describe("bad input never writes and never 500s", () => {
  for (const c of cases) {
    it(`sign-up: ${c.name} → ${c.status} ${c.code}`, async () => {
      const t = testInstance();
      const headers: Record<string, string> = {};
      if (c.type !== "") headers["content-type"] = c.type ?? "application/json";
      const res = await t.request("/sign-up/email", { method: "POST", headers, body: c.body });
      expect(res.status).toBe(c.status);
      const json = await res.json();
      expect(json.code).toBe(c.code);
      if (c.message) expect(json.message).toBe(c.message);
      // Validation never echoes what was submitted.
      expect(JSON.stringify(json)).not.toContain("not-an-email");
      expect(t.count("user") + t.count("account") + t.count("session")).toBe(0);
    });
  }

  it("accepts a url-encoded sign-in form", async () => {
    const t = testInstance();
    await t.post("/sign-up/email", valid);
    const res = await t.request("/sign-in/email", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ email: valid.email, password: valid.password }).toString(),
    });
    expect(res.status).toBe(200);
  });

  it("refuses a malformed email on sign-in with INVALID_EMAIL", async () => {
    const t = testInstance();
    const res = await t.post("/sign-in/email", { email: "nope", password: "password123" });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ code: "INVALID_EMAIL", message: "Invalid email" });
  });

  it("answers a stored hash that is not scrypt like a wrong password, not with a 500", async () => {
    const t = testInstance();
    await t.post("/sign-up/email", valid);
    t.store.account![0]!.password = "garbage-without-colon";
    const res = await t.post("/sign-in/email", { email: valid.email, password: valid.password });
    expect(res.status).toBe(401);
  });

  it("refuses sign-up when disabled", async () => {
    const t = testInstance({ emailAndPassword: { enabled: true, disableSignUp: true } });
    const res = await t.post("/sign-up/email", valid);
    expect(res.status).toBe(400);
    expect((await res.json()).code).toBe("EMAIL_PASSWORD_SIGN_UP_DISABLED");
  });
});
