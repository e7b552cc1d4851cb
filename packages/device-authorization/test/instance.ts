import { client, testAuth, type DatabaseKind, type TestAuth, type TestClient } from "@latchkey/test-support";
import type { DeviceCodeResponse } from "../src/client.ts";
import { deviceAuthorization, type DeviceAuthorizationOptions } from "../src/index.ts";

export const PASSWORD = "correct horse battery";
export const GRANT_TYPE = "urn:ietf:params:oauth:grant-type:device_code";

/** An instance with email/password and `deviceAuthorization(options)` on a fresh database (rate limit off). */
export const deviceInstance = (db: DatabaseKind, options?: DeviceAuthorizationOptions, extra: object = {}): Promise<TestAuth> =>
  testAuth({ emailAndPassword: { enabled: true }, rateLimit: { enabled: false }, plugins: [deviceAuthorization(options)], ...extra }, { db });

/** Signs `name` up through a fresh browser; the browser is signed in. */
export async function signedIn(t: TestAuth, name: string): Promise<{ browser: TestClient; token: string; userId: string }> {
  const browser = client(t.auth);
  const answer = await browser.post<{ token: string; user: { id: string } }>("/sign-up/email", {
    email: `${name}@example.com`,
    password: PASSWORD,
    name,
  });
  if (answer.status !== 200 || !answer.json) throw new Error(`sign-up failed: ${answer.status} ${answer.text}`);
  return { browser, token: answer.json.token, userId: answer.json.user.id };
}

export type IssuedCodes = DeviceCodeResponse;

/** A new code pair for `clientId`. */
export async function issue(t: TestAuth, clientId = "tv-app", extra: Record<string, string> = {}): Promise<IssuedCodes> {
  const answer = await client(t.auth).post<IssuedCodes>("/device/code", { client_id: clientId, ...extra });
  if (answer.status !== 200 || !answer.json) throw new Error(`device/code failed: ${answer.status} ${answer.text}`);
  return answer.json;
}

/** One poll of `/device/token`. */
export const poll = (t: TestAuth, deviceCode: string, clientId = "tv-app") =>
  client(t.auth).post<Record<string, unknown>>("/device/token", { grant_type: GRANT_TYPE, device_code: deviceCode, client_id: clientId });

/** The browser claims the code (`GET /device`) and approves it. */
export async function claimAndApprove(browser: TestClient, userCode: string): Promise<void> {
  const claimed = await browser.get(`/device?user_code=${encodeURIComponent(userCode)}`);
  if (claimed.status !== 200) throw new Error(`claim failed: ${claimed.status} ${claimed.text}`);
  const approved = await browser.post("/device/approve", { userCode });
  if (approved.status !== 200) throw new Error(`approve failed: ${approved.status} ${approved.text}`);
}

/** Moves the stored `lastPolledAt` back so the next poll is not too soon. */
export async function forgetLastPoll(t: TestAuth, deviceCode: string): Promise<void> {
  await t.auth.$context.adapter.updateMany({ model: "deviceCode", where: [{ field: "deviceCode", value: deviceCode }], update: { lastPolledAt: null } });
}
