import { randomBytes } from "node:crypto";
import { expect } from "vitest";
import { call, CookieJar, type Answer } from "./http.ts";
import type { NodeAddress } from "./node-process.ts";

/** A new user's sign-up fields; the email is unique per call. */
export interface Credentials {
  name: string;
  email: string;
  password: string;
}

export const newUser = (): Credentials => {
  const id = randomBytes(5).toString("hex");
  return { name: `Scale ${id}`, email: `scale-${id}@example.com`, password: `pass-word-${id}` };
};

/** `/get-session`'s answer for a live session. */
export interface SessionBody {
  session: { id: string; token: string; userId: string; expiresAt: string };
  user: { id: string; email: string; name: string };
}

/** A signed-in client: its jar (session cookie, and cache cookie when on) and the raw token. */
export interface SignedIn {
  jar: CookieJar;
  token: string;
  userId: string;
  answer: Answer<{ token: string; user: { id: string } }>;
}

async function expectSession(
  node: NodeAddress,
  path: string,
  json: Record<string, unknown>,
): Promise<SignedIn> {
  const jar = new CookieJar();
  const answer = await call<{ token: string; user: { id: string } }>(node, path, { json, jar });
  expect(answer.status, `${path} on ${node.name}: ${answer.text}`).toBe(200);
  return { jar, token: answer.body.token, userId: answer.body.user.id, answer };
}

export const signUp = (node: NodeAddress, user: Credentials): Promise<SignedIn> =>
  expectSession(node, "/sign-up/email", { ...user });

export const signIn = (node: NodeAddress, user: Pick<Credentials, "email" | "password">): Promise<SignedIn> =>
  expectSession(node, "/sign-in/email", { email: user.email, password: user.password });

/** `GET /get-session` with a jar or a Bearer value; the answer's body is the session or null. */
export function getSession(
  node: NodeAddress,
  auth: { jar: CookieJar } | { bearer: string },
  query = "",
): Promise<Answer<SessionBody | null>> {
  return "jar" in auth
    ? call<SessionBody | null>(node, `/get-session${query}`, { jar: auth.jar })
    : call<SessionBody | null>(node, `/get-session${query}`, {
        headers: { authorization: `Bearer ${auth.bearer}` },
      });
}
