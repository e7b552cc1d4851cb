import { client, testAuth, type DatabaseKind, type TestAuth, type TestClient } from "@latchkey/test-support";
import type { LatchkeyOptions } from "@latchkey/core";
import { apiKey, type ApiKeyOptions } from "../src/index.ts";

export const PASSWORD = "correct horse battery";

/** An instance with email/password and `apiKey(options)` on a fresh database. */
export const apiKeyInstance = (
  db: DatabaseKind,
  options?: ApiKeyOptions | ApiKeyOptions[],
  extra: Omit<Partial<LatchkeyOptions>, "database"> = {},
): Promise<TestAuth> => testAuth({ emailAndPassword: { enabled: true }, ...extra, plugins: [apiKey(options), ...(extra.plugins ?? [])] }, { db });

/** Signs user `n` up through a new browser and answers the browser (signed in) and the user id. */
export async function signedIn(t: TestAuth, n: number | string): Promise<{ browser: TestClient; userId: string }> {
  const browser = client(t.auth);
  const answer = await browser.post<{ user: { id: string } }>("/sign-up/email", {
    email: `user${n}@example.com`,
    password: PASSWORD,
    name: `User ${n}`,
  });
  if (answer.status !== 200 || !answer.json) throw new Error(`sign-up failed: ${answer.status} ${answer.text}`);
  return { browser, userId: answer.json.user.id };
}

/** The shape `/api-key/create` answers. */
export interface CreatedKey {
  id: string;
  key: string;
  start: string | null;
  prefix: string | null;
  remaining: number | null;
  expiresAt: string | null;
  [field: string]: unknown;
}

/** The shape `verifyApiKey` answers. */
export interface Verdict {
  valid: boolean;
  error: { code: string; message: string; [k: string]: unknown } | null;
  key: Record<string, unknown> | null;
}

/** `auth.api.createApiKey` from server code for `userId` (server-only fields allowed). */
export async function serverCreate(t: TestAuth, body: Record<string, unknown>): Promise<CreatedKey> {
  const api = t.auth.api as unknown as Record<string, (args: unknown) => Promise<unknown>>;
  return (await api.createApiKey!({ body })) as CreatedKey;
}

/** `auth.api.verifyApiKey`. */
export async function verify(t: TestAuth, body: Record<string, unknown>): Promise<Verdict> {
  const api = t.auth.api as unknown as Record<string, (args: unknown) => Promise<unknown>>;
  return (await api.verifyApiKey!({ body })) as Verdict;
}

export { client };
