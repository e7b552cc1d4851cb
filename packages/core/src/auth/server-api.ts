import type { AuthContext } from "../context.js";
import type { Endpoint } from "../api/endpoint.js";
import { execute, type HookChain } from "../api/execute.js";
import { toResponse } from "../api/response.js";
import { APIError } from "../errors/api-error.js";

/** The untyped shape every `auth.api` function accepts at run time. */
interface RuntimeArgs {
  body?: unknown;
  query?: unknown;
  params?: Record<string, string>;
  headers?: HeadersInit;
  asResponse?: boolean;
  returnHeaders?: boolean;
}

type RuntimeAPIFunction = (args?: RuntimeArgs) => Promise<unknown>;

/** Builds `auth.api` from the mounted endpoints. */
export function createServerAPI(
  auth: AuthContext,
  hooks: HookChain,
  endpoints: Record<string, Endpoint>,
  ready: () => Promise<void>,
): Record<string, RuntimeAPIFunction> {
  const api: Record<string, RuntimeAPIFunction> = {};
  for (const [name, endpoint] of Object.entries(endpoints)) {
    api[name] = async (args = {}) => {
      await ready();
      if (endpoint.options.requireHeaders && !args.headers) {
        throw new APIError("BAD_REQUEST", { message: "Headers is required" });
      }
      const method = Array.isArray(endpoint.options.method) ? endpoint.options.method[0]! : endpoint.options.method;
      const outcome = await execute(endpoint, auth, hooks, {
        path: endpoint.path,
        method,
        body: args.body,
        query: args.query ?? {},
        params: args.params ?? {},
        headers: new Headers(args.headers),
        request: undefined,
      });
      if (args.asResponse) return toResponse(outcome);
      if (outcome.kind === "error") {
        outcome.headers.forEach((value, key) => outcome.error.headers.append(key, value));
        throw outcome.error;
      }
      const response = outcome.kind === "response" ? outcome.response : outcome.data;
      return args.returnHeaders ? { headers: outcome.headers, response } : response;
    };
  }
  return api;
}
