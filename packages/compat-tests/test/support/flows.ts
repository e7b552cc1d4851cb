import { cookiePair, SESSION_COOKIE } from "./cookies.ts";
import { jsonPost, url, type Handler } from "./instances.ts";

export interface Credentials {
  email: string;
  password: string;
}

/** The parts of a sign-up or sign-in a test carries on with. */
export interface SignedIn {
  status: number;
  userId: string;
  token: string;
  /** `better-auth.session_token=…` for a Cookie header. */
  cookie: string;
  response: Response;
}

/** A JSON body the test expects; throws with the status and text otherwise. */
async function json<T>(response: Response, step: string): Promise<T> {
  const text = await response.text();
  if (response.status !== 200) throw new Error(`${step}: ${response.status} ${text}`);
  return JSON.parse(text) as T;
}

async function session(handler: Handler, path: string, body: object): Promise<SignedIn> {
  const response = await handler(jsonPost(path, body));
  const data = await json<{ token: string; user: { id: string } }>(response.clone(), path);
  return {
    status: response.status,
    userId: data.user.id,
    token: data.token,
    cookie: cookiePair(response, SESSION_COOKIE),
    response,
  };
}

export const signUp = (handler: Handler, user: Credentials & { name: string }): Promise<SignedIn> =>
  session(handler, "/sign-up/email", user);

export const signIn = (
  handler: Handler,
  credentials: Credentials & { rememberMe?: boolean },
): Promise<SignedIn> => session(handler, "/sign-in/email", credentials);

/** What GET /get-session returns: the session and user, or `null`. */
export interface SessionBody {
  session: { id: string; token: string; userId: string; expiresAt: string };
  user: { id: string; email: string; name: string };
}

export async function getSession(
  handler: Handler,
  headers: Record<string, string>,
): Promise<SessionBody | null> {
  return json<SessionBody | null>(
    await handler(new Request(url("/get-session"), { headers })),
    "get-session",
  );
}

export async function signOut(handler: Handler, cookie: string): Promise<Response> {
  return handler(jsonPost("/sign-out", {}, { cookie }));
}
