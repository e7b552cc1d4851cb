import { badInputBattery, client, VALIDATION_ERROR } from "@latchkey/test-support";
import { expect } from "vitest";
import { PASSWORD, usernameInstance } from "./instance.ts";

const validation = { "JSON array": VALIDATION_ERROR, "wrong type": VALIDATION_ERROR };

badInputBattery({
  name: "username routes, and the routes its hooks guard, refuse bad input and write nothing (SQLite)",
  instance: async () => {
    const t = await usernameInstance("sqlite");
    const c = client(t.auth);
    await c.post("/sign-up/email", { email: "battery@example.com", password: PASSWORD, name: "B", username: "battery" });
    return { ...t, headers: { cookie: c.jar.header()! } };
  },
  routes: [
    {
      method: "POST",
      path: "/sign-in/username",
      validBody: { username: "battery", password: "not the password" },
      expect: { ...validation, "extra fields": { status: 401 }, "prototype keys": { status: 401 }, "oversized string": { status: [400, 401, 422] } },
    },
    { method: "POST", path: "/is-username-available", validBody: { username: "battery" }, expect: validation },
    // A taken username: the hook refuses before anything is written.
    {
      method: "POST",
      path: "/sign-up/email",
      validBody: { email: "other@example.com", password: PASSWORD, name: "O", username: "battery" },
      // The taken username is refused by the hook, before the body's own validation.
      expect: {
        "JSON array": VALIDATION_ERROR,
        "wrong type": { status: 400 },
        "missing field: username": { status: 200, writes: true },
      },
    },
    {
      method: "POST",
      path: "/update-user",
      validBody: { username: "battery", displayUsername: "Battery" },
      // Core's answer to nothing to update carries a message and no code (reference).
      expect: { ...validation, "empty object": { status: 400, code: null } },
    },
  ],
  check: (answer) => {
    if (answer.status >= 400) expect(answer.response.headers.getSetCookie()).toEqual([]);
  },
});
