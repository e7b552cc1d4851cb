import { Browser, type TestAuth, type TestIdP } from "@latchkey/test-support";
import { AUTH } from "./instance.ts";

export const BASE = "http://localhost:3000";

/** Runs a whole SSO sign-in in a new browser as the IdP account `sub`; answers the browser and where it ended. */
export async function ssoSignIn(
  t: TestAuth,
  idp: TestIdP,
  sub: string,
  body: Record<string, unknown>,
): Promise<{ browser: Browser; location: string | null }> {
  const browser = new Browser(BASE, t.auth.handler);
  idp.login(sub);
  const res = await browser.post(`${AUTH}/sign-in/sso`, { callbackURL: "/dashboard", ...body });
  const json = (await res.json()) as { url: string };
  if (res.status !== 200) throw new Error(`sign-in/sso: ${res.status} ${JSON.stringify(json)}`);
  const { location } = await browser.follow(json.url);
  return { browser, location };
}

/** The signed-in browser's user, or null. */
export async function sessionUser(browser: Browser): Promise<Record<string, unknown> | null> {
  const session = (await (await browser.send(`${AUTH}/get-session`)).json()) as {
    user: Record<string, unknown>;
  } | null;
  return session?.user ?? null;
}

/** Marks a stored provider's domain verified (the DNS proof itself is tested in domain-verification.test.ts). */
export const markVerified = (t: TestAuth, providerId: string) =>
  t.auth.$context.adapter.update({
    model: "ssoProvider",
    where: [{ field: "providerId", value: providerId }],
    update: { domainVerified: true },
  });
