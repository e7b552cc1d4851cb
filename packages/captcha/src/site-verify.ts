import { boundedFetch } from "@latchkey/core";
import { CAPTCHA_INTERNAL_ERRORS } from "./error-codes.js";

/** The fields of a siteverify answer the checks read; providers add more. */
export interface SiteVerifyAnswer {
  success?: unknown;
  score?: unknown;
  action?: unknown;
  hostname?: unknown;
  "error-codes"?: unknown;
}

/** One siteverify request: where, how the form is encoded, and its fields (undefined ones dropped). */
export interface SiteVerifyRequest {
  url: string;
  encoding: "json" | "form";
  fields: Record<string, string | undefined>;
  timeout: number;
}

/**
 * Posts the token to the provider through core's bounded fetch (time limit, size cap, no
 * redirects) and returns its JSON answer. Any failure (network, timeout, a non-2xx status, a
 * body that is not a JSON object) throws SERVICE_UNAVAILABLE: the caller fails closed.
 */
export async function postSiteVerify(request: SiteVerifyRequest): Promise<SiteVerifyAnswer> {
  const fields = Object.fromEntries(
    Object.entries(request.fields).filter((entry): entry is [string, string] => entry[1] !== undefined),
  );
  const body = request.encoding === "json" ? JSON.stringify(fields) : new URLSearchParams(fields).toString();
  const contentType = request.encoding === "json" ? "application/json" : "application/x-www-form-urlencoded";
  let response: Response;
  try {
    response = await boundedFetch(
      request.url,
      { method: "POST", headers: { "content-type": contentType, accept: "application/json" }, body },
      { timeout: request.timeout, maxBytes: 64 * 1024 },
    );
  } catch (cause) {
    throw new Error(CAPTCHA_INTERNAL_ERRORS.SERVICE_UNAVAILABLE, { cause });
  }
  if (!response.ok) throw new Error(`${CAPTCHA_INTERNAL_ERRORS.SERVICE_UNAVAILABLE} (status ${response.status})`);
  let answer: unknown;
  try {
    answer = await response.json();
  } catch {
    answer = null;
  }
  if (typeof answer !== "object" || answer === null || Array.isArray(answer)) {
    throw new Error(`${CAPTCHA_INTERNAL_ERRORS.SERVICE_UNAVAILABLE} (not a JSON object)`);
  }
  return answer as SiteVerifyAnswer;
}
