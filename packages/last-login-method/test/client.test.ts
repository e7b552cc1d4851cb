import { createAuthClient, type ClientPlugin } from "@latchkey/client";
import { afterEach, describe, expect, it } from "vitest";
import { lastLoginMethodClient } from "../src/client.ts";
import { ada, BASE, lastLoginInstance } from "./instance.ts";

/**
 * The page's `document.cookie`, as a browser keeps it: writes take `name=value; attributes`
 * (an `expires` in the past deletes), reads list `name=value` pairs. Only cookies without
 * `HttpOnly` ever reach it, which the fetch below enforces.
 */
class PageCookies {
  readonly jar = new Map<string, string>();
  get cookie(): string {
    return [...this.jar].map(([k, v]) => `${k}=${v}`).join("; ");
  }
  set cookie(line: string) {
    const [pair = "", ...attributes] = line.split(";").map((s) => s.trim());
    const eq = pair.indexOf("=");
    const name = pair.slice(0, eq);
    const expired = attributes.some((a) => {
      const [k = "", v = ""] = a.split("=");
      return (
        (k.toLowerCase() === "expires" && Date.parse(v) <= Date.now()) ||
        (k.toLowerCase() === "max-age" && Number(v) <= 0)
      );
    });
    if (expired) this.jar.delete(name);
    else this.jar.set(name, pair.slice(eq + 1));
  }
}

const g = globalThis as unknown as { document?: PageCookies };
afterEach(() => {
  delete g.document;
});

function browserClient() {
  const page = new PageCookies();
  g.document = page;
  const { auth } = lastLoginInstance();
  const client = createAuthClient({
    baseURL: BASE,
    fetch: async (url, init) => {
      const response = await auth.handler(new Request(url, init));
      for (const line of response.headers.getSetCookie()) {
        if (!/;\s*httponly/i.test(line)) page.cookie = line;
      }
      return response;
    },
    plugins: [lastLoginMethodClient()],
  });
  return { client, page };
}

describe("lastLoginMethodClient", () => {
  it("is a client plugin for @latchkey/client", () => {
    expect(lastLoginMethodClient()).toSatisfy((p: ClientPlugin) => p.id === "last-login-method-client");
  });

  it("reads the method the server wrote, through document.cookie (the session cookie stays hidden)", async () => {
    const { client, page } = browserClient();
    expect(client.getLastUsedLoginMethod()).toBeNull();
    const { error } = await client.signUp.email(ada);
    expect(error).toBeNull();
    expect([...page.jar.keys()]).toEqual(["better-auth.last_used_login_method"]);
    expect(client.getLastUsedLoginMethod()).toBe("email");
    expect(client.isLastUsedLoginMethod("email")).toBe(true);
    expect(client.isLastUsedLoginMethod("google")).toBe(false);
  });

  it("clearLastUsedLoginMethod forgets it", async () => {
    const { client } = browserClient();
    await client.signUp.email(ada);
    client.clearLastUsedLoginMethod();
    expect(client.getLastUsedLoginMethod()).toBeNull();
  });

  it("honours a custom cookieName", () => {
    const page = new PageCookies();
    g.document = page;
    page.cookie = "my_method=passkey; path=/";
    const { getLastUsedLoginMethod } = lastLoginMethodClient({ cookieName: "my_method" }).methods();
    expect(getLastUsedLoginMethod()).toBe("passkey");
  });

  it("answers null outside a browser", () => {
    const methods = lastLoginMethodClient().methods();
    expect(methods.getLastUsedLoginMethod()).toBeNull();
    expect(methods.isLastUsedLoginMethod("email")).toBe(false);
    expect(() => methods.clearLastUsedLoginMethod()).not.toThrow();
  });
});
