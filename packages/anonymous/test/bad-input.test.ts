import { badInputBattery, client } from "@latchkey/test-support";
import { expect } from "vitest";
import { anonymousInstance, signInAnonymously } from "./instance.ts";

badInputBattery({
  name: "anonymous routes refuse bad input and write nothing (SQLite)",
  // An anonymous browser: sign-in/anonymous is then refused, delete-anonymous-user reached.
  instance: async () => {
    const t = await anonymousInstance("sqlite", { disableDeleteAnonymousUser: true });
    const browser = client(t.auth);
    await signInAnonymously(browser);
    return { ...t, headers: { cookie: browser.jar.header()! } };
  },
  routes: [
    // Neither route reads a body (nor does the reference's): the cases reach the handlers,
    // which refuse them with their own codes and write nothing.
    { method: "POST", path: "/sign-in/anonymous" },
    { method: "POST", path: "/delete-anonymous-user" },
  ],
  check: (answer) => {
    if (answer.status >= 400) expect(answer.response.headers.getSetCookie()).toEqual([]);
  },
});
