import { badInputBattery, client, testAuth, VALIDATION_ERROR } from "@latchkey/test-support";
import { afterAll, beforeAll } from "vitest";
import { haveIBeenPwned } from "../src/index.ts";
import { startRangeStub, type RangeStub } from "./range-stub.ts";

// The plugin adds no route; it guards the password routes. Bad input on them is refused by the
// routes' own validation, never a 500 and never a write, with the check installed.
let stub: RangeStub;
beforeAll(async () => {
  stub = await startRangeStub();
});
afterAll(() => stub.close());

badInputBattery({
  name: "guarded password routes refuse bad input and write nothing",
  instance: async () => {
    const t = await testAuth(
      { emailAndPassword: { enabled: true }, plugins: [haveIBeenPwned({ rangeURL: stub.url })] },
      { db: "sqlite" },
    );
    const c = client(t.auth);
    await c.post("/sign-up/email", { email: "battery@example.com", password: "a unique battery pass 91", name: "B" });
    return { ...t, headers: { cookie: c.jar.header()! } };
  },
  routes: [
    {
      method: "POST",
      path: "/change-password",
      validBody: { currentPassword: "wrong current password", newPassword: "another unique pass 77" },
    },
    { method: "POST", path: "/reset-password", validBody: { token: "unknown-token", newPassword: "another unique pass 77" } },
  ],
  expect: { "JSON array": VALIDATION_ERROR, "wrong type": VALIDATION_ERROR },
});
