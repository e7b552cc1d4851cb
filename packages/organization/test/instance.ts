import { client, testAuth, type DatabaseKind, type TestAuth, type TestClient } from "@latchkey/test-support";
import type { LatchkeyOptions } from "@latchkey/core";
import { organization, type OrganizationOptions } from "../src/index.ts";

export const PASSWORD = "correct horse battery";

/** An instance with email/password and `organization(options)` on a fresh database. */
export const orgInstance = (
  db: DatabaseKind,
  options?: OrganizationOptions,
  extra: Omit<Partial<LatchkeyOptions>, "database" | "plugins"> = {},
): Promise<TestAuth> =>
  testAuth({ emailAndPassword: { enabled: true }, rateLimit: { enabled: false }, ...extra, plugins: [organization(options)] }, { db });

/** A signed-in browser for a new user `name@example.com`, with the user's id. */
export async function signUp(t: TestAuth, name: string): Promise<{ browser: TestClient; userId: string; email: string }> {
  const browser = client(t.auth);
  const email = `${name}@example.com`;
  const answer = await browser.post<{ user: { id: string } }>("/sign-up/email", { email, password: PASSWORD, name });
  if (answer.status !== 200 || !answer.json) throw new Error(`sign-up failed: ${answer.status} ${answer.text}`);
  return { browser, userId: answer.json.user.id, email };
}

/** Creates an organization through `browser` and answers its id. */
export async function createOrg(browser: TestClient, slug: string, extra: Record<string, unknown> = {}): Promise<string> {
  const answer = await browser.post<{ id: string }>("/organization/create", { name: `Org ${slug}`, slug, ...extra });
  if (answer.status !== 200 || !answer.json) throw new Error(`create failed: ${answer.status} ${answer.text}`);
  return answer.json.id;
}

/** Adds `userId` to the organization as `role` (server-only addMember). */
export async function addMember(t: TestAuth, organizationId: string, userId: string, role = "member", teamId?: string) {
  const api = t.auth.api as unknown as Record<string, (args: unknown) => Promise<unknown>>;
  return api.addMember!({ body: { organizationId, userId, role, ...(teamId ? { teamId } : {}) } }) as Promise<{ id: string }>;
}

/** Rows of one table (test reads). */
export async function rows<T = Record<string, unknown>>(t: TestAuth, model: string, where: { field: string; value: string }[] = []): Promise<T[]> {
  return t.auth.$context.adapter.findMany<T & Record<string, unknown>>({ model, where });
}

export { client };
