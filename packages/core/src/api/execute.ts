import * as v from "valibot";
import type { AuthContext } from "../context.js";
import { APIError } from "../errors/api-error.js";
import type { Endpoint } from "./endpoint.js";
import { createEndpointContext, type CallInput, type EndpointContext } from "./context.js";
import type { ResolvedHook } from "../auth/hook-chain.js";
import { applicationCall, assertDeclaredCode } from "./declared-codes.js";
import { validationMessage } from "./validation.js";

/** How one call ended: data to send, a ready `Response`, or an error. */
export type Outcome =
  | { kind: "data"; data: unknown; status: number; headers: Headers }
  | { kind: "response"; response: Response; headers: Headers }
  | { kind: "error"; error: APIError; headers: Headers };

/** The hooks that run around endpoints, user's first, then each plugin's, in order. */
export interface HookChain {
  before: ResolvedHook[];
  after: ResolvedHook[];
}

const runHook = (hook: ResolvedHook, ctx: EndpointContext): Promise<unknown> =>
  hook.application ? applicationCall(() => hook.handler(ctx)) : Promise.resolve(hook.handler(ctx));

const applies = (hook: ResolvedHook, endpoint: Endpoint, ctx: EndpointContext): boolean =>
  (hook.endpoints === "*" || hook.endpoints.has(endpoint)) && (!hook.when || hook.when(ctx));

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value) && !(value instanceof Response);

/** Merges a before hook's `{ context: {...} }` into the call input (headers merge, the rest replaces). */
function mergeInput(ctx: EndpointContext, patch: Record<string, unknown>): void {
  for (const [key, value] of Object.entries(patch)) {
    if (key === "headers" && value) {
      new Headers(value as HeadersInit).forEach((val, name) => ctx.headers.set(name, val));
    } else if ((key === "body" || key === "query") && isPlainObject(value) && isPlainObject(ctx[key])) {
      ctx[key] = { ...(ctx[key] as object), ...value };
    } else if (key in ctx) {
      (ctx as unknown as Record<string, unknown>)[key] = value;
    } else {
      (ctx.context as unknown as Record<string, unknown>)[key] = value;
    }
  }
}

/** Object schemas (valibot lets arrays through them; the reference does not). */
const OBJECT_TYPES = new Set(["object", "loose_object", "strict_object", "object_with_rest"]);

interface SchemaShape {
  type: string;
  wrapped?: SchemaShape;
  options?: SchemaShape[];
}

/** The container kinds a schema demands ("object", "record"), one per intersected part. */
function containers(schema: SchemaShape | undefined): string[] {
  if (!schema) return [];
  if (schema.type === "intersect") return (schema.options ?? []).flatMap(containers);
  if (OBJECT_TYPES.has(schema.type)) return ["object"];
  if (schema.type === "record") return ["record"];
  return containers(schema.wrapped);
}

async function validate(endpoint: Endpoint, ctx: EndpointContext): Promise<void> {
  const { body, query } = endpoint.options;
  const kinds = Array.isArray(ctx.body) ? containers(body as SchemaShape | undefined) : [];
  if (kinds.length) {
    const message = kinds.map((kind) => `[body] Invalid input: expected ${kind}, received array`).join("; ");
    throw new APIError(400, { message, code: "VALIDATION_ERROR" });
  }
  if (body) {
    const result = await v.safeParseAsync(body, ctx.body);
    if (!result.success) {
      // Numeric status: the reference sends "400" as the status text of validation errors.
      throw new APIError(400, { message: validationMessage(result.issues, "body", body), code: "VALIDATION_ERROR" });
    }
    ctx.body = result.output;
  }
  if (query) {
    const result = await v.safeParseAsync(query, ctx.query ?? {});
    if (!result.success) {
      throw new APIError(400, { message: validationMessage(result.issues, "query", query), code: "VALIDATION_ERROR" });
    }
    ctx.query = result.output;
  }
}

async function runEndpoint(endpoint: Endpoint, ctx: EndpointContext): Promise<unknown> {
  // Input is validated before the guards run, as in the reference: a malformed body answers
  // 400 even without a session.
  await validate(endpoint, ctx);
  for (const middleware of endpoint.options.use ?? []) await middleware(ctx);
  return endpoint.handler(ctx);
}

/**
 * Runs one endpoint with its hooks: before hooks (may patch the input or answer instead),
 * the endpoint (validation, middlewares, handler), then after hooks (may replace the
 * result). Errors other than `APIError` propagate: the HTTP layer logs them and answers 500.
 */
export async function execute(
  endpoint: Endpoint,
  auth: AuthContext,
  hooks: HookChain,
  input: CallInput,
  guard?: (ctx: EndpointContext) => Promise<void>,
): Promise<Outcome> {
  const ctx = createEndpointContext(auth, input);
  // A guard (the HTTP origin check) refuses before any hook runs: its APIError propagates to
  // the caller as an answer of its own, as the reference's router middleware does.
  if (guard) await guard(ctx);
  let result: unknown;
  let shortCircuited = false;
  try {
    for (const hook of hooks.before) {
      if (!applies(hook, endpoint, ctx)) continue;
      const out = await runHook(hook, ctx);
      if (isPlainObject(out) && "context" in out && isPlainObject(out.context)) {
        mergeInput(ctx, out.context);
      } else if (out !== undefined && out !== null) {
        result = out;
        shortCircuited = true;
        break;
      }
    }
    if (!shortCircuited) result = await runEndpoint(endpoint, ctx);
  } catch (error) {
    if (!(error instanceof APIError)) throw error;
    result = error;
  }
  for (const hook of hooks.after) {
    if (!applies(hook, endpoint, ctx)) continue;
    ctx.context.returned = result;
    try {
      const out = await runHook(hook, ctx);
      if (out !== undefined) result = isPlainObject(out) && "response" in out ? out.response : out;
    } catch (error) {
      if (!(error instanceof APIError)) throw error;
      result = error;
    }
  }
  if (result instanceof APIError) {
    assertDeclaredCode(result, auth, endpoint);
    return { kind: "error", error: result, headers: ctx.responseHeaders };
  }
  if (result instanceof Response) return { kind: "response", response: result, headers: ctx.responseHeaders };
  return { kind: "data", data: result, status: ctx.status, headers: ctx.responseHeaders };
}
