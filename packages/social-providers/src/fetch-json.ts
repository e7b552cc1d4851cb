import { boundedFetch } from "@latchkey/core";

/**
 * A JSON object from a provider API, or null when the call fails (network error, non-2xx,
 * a body that is not a JSON object). Profile lookups treat every failure alike: the sign-in
 * ends with `unable_to_get_user_info`, and nothing about the token reaches a log.
 */
export async function fetchJSON<T = Record<string, unknown>>(
  url: string,
  init: { method?: "GET" | "POST"; headers?: Record<string, string>; body?: BodyInit } = {},
): Promise<T | null> {
  try {
    const response = await boundedFetch(url, {
      method: init.method ?? "GET",
      headers: { accept: "application/json", ...init.headers },
      body: init.body,
    });
    if (!response.ok) return null;
    const data: unknown = await response.json();
    return typeof data === "object" && data !== null ? (data as T) : null;
  } catch {
    return null;
  }
}

/** `Authorization: Bearer <token>` headers, or null without a token (nothing to ask with). */
export const bearer = (accessToken: string | undefined): Record<string, string> | null =>
  accessToken ? { authorization: `Bearer ${accessToken}` } : null;
