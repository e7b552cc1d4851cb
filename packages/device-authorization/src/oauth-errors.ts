import { APIError, type EndpointContext, type HookEntry } from "@latchkey/core";
import { DEVICE_CODE_PARAMS, repeatedParam, withEffectiveParams } from "./form-params.js";
import { oauthError } from "./error-codes.js";

/** Paths whose answers must never be cached (RFC 8628 §3.2, RFC 6749 §5.1), errors included. */
const NO_STORE_PATHS = ["/device/code", "/device/token"];

/** Sets `Cache-Control: no-store` and `Pragma: no-cache` before anything can fail, so error answers carry them too. */
export const noStoreHook: HookEntry = {
  matcher: NO_STORE_PATHS,
  handler: (ctx: EndpointContext) => {
    ctx.setHeader("Cache-Control", "no-store");
    ctx.setHeader("Pragma", "no-cache");
  },
};

/**
 * `/device/code` answers its validation failures OAuth-style: core's `VALIDATION_ERROR`
 * becomes 400 `{ error: "invalid_request", error_description }` with the same message.
 */
export const deviceCodeValidationHook: HookEntry = {
  matcher: ["/device/code"],
  handler: (ctx: EndpointContext) => {
    const returned = ctx.context.returned;
    if (returned instanceof APIError && returned.body?.code === "VALIDATION_ERROR") {
      throw oauthError("BAD_REQUEST", "invalid_request", String(returned.body.message ?? "Invalid request"));
    }
  },
};

/** Form bodies larger than this are left to core, which refuses bodies over its own cap. */
const MAX_FORM_BYTES = 64 * 1024;

/** The body as text, or undefined when it is longer than `limit` bytes (reading stops there). */
async function readUpTo(request: Request, limit: number): Promise<string | undefined> {
  if (!request.body) return "";
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel();
      return undefined;
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.byteLength;
  }
  return new TextDecoder().decode(bytes);
}

/**
 * A url-encoded `/device/code` body, read from a copy of the request before core parses it
 * (core's form parser keeps one value per name): a parameter repeated with values is a 400
 * `invalid_request` "<name> must not be repeated" answer; empty copies beside a value are
 * dropped from a replacement request. Undefined when the request passes unchanged.
 */
export async function checkDeviceCodeForm(
  request: Request,
  basePath: string,
  names: readonly string[] = DEVICE_CODE_PARAMS,
): Promise<{ response?: Response; request?: Request } | undefined> {
  if (request.method !== "POST") return undefined;
  if (new URL(request.url).pathname !== `${basePath.replace(/\/$/, "")}/device/code`) return undefined;
  if (!(request.headers.get("content-type") ?? "").toLowerCase().includes("application/x-www-form-urlencoded")) return undefined;
  const text = await readUpTo(request.clone(), MAX_FORM_BYTES);
  if (text === undefined) return undefined;
  const repeated = repeatedParam(text, names);
  if (repeated) {
    const response = Response.json(
      { error: "invalid_request", error_description: `${repeated} must not be repeated` },
      { status: 400, headers: { "Cache-Control": "no-store", Pragma: "no-cache" } },
    );
    return { response };
  }
  const effective = withEffectiveParams(text, names);
  if (effective === undefined) return undefined;
  const headers = new Headers(request.headers);
  headers.delete("content-length");
  return { request: new Request(request.url, { method: "POST", headers, body: effective }) };
}
