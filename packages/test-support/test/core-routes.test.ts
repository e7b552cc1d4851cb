import { badInputBattery, testAuth } from "../src/index.ts";

const ada = { name: "Ada", email: "ada@example.com", password: "password123" };

badInputBattery({
  name: "core routes on SQLite",
  instance: () => testAuth({ emailAndPassword: { enabled: true } }, { db: "sqlite" }),
  routes: [
    // A valid sign-up body would write; an existing-looking but wrong password on sign-in does not.
    { method: "POST", path: "/sign-in/email", validBody: { email: ada.email, password: ada.password } },
    { method: "POST", path: "/sign-up/email", validBody: { ...ada, password: "short" } },
    { method: "GET", path: "/get-session" },
  ],
});
