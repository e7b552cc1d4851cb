import { badInputBattery, DATABASE_KINDS, testAuth } from "../src/index.ts";

/**
 * The battery over a few of core's routes on every dialect: it runs against any instance,
 * and no bad input writes a row on SQLite, PostgreSQL or MariaDB.
 */
const ada = { name: "Ada", email: "ada@example.com", password: "password123" };

for (const db of DATABASE_KINDS) {
  badInputBattery({
    name: `core routes on ${db}`,
    instance: () => testAuth({ emailAndPassword: { enabled: true } }, { db }),
    routes: [
      // An unknown user: valid to validation, refused without a write.
      { method: "POST", path: "/sign-in/email", validBody: { email: ada.email, password: ada.password } },
      // A too-short password: everything else valid, nothing written.
      {
        method: "POST",
        path: "/sign-up/email",
        validBody: { ...ada, password: "short" },
        expect: { "extra fields": { status: 400, code: "PASSWORD_TOO_SHORT" } },
      },
      { method: "GET", path: "/get-session" },
      { method: "GET", path: "/verify-email", validQuery: { token: "x" }, nonJSON: true },
    ],
  });
}
