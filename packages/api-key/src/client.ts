// Browser-safe entry (`@latchkey/api-key/client`): the routes as `@latchkey/client` methods.
// Type-only imports, so no server code reaches a bundle.
import type { Call, ClientPlugin, ClientResult, QueryValue, RequestOptions } from "@latchkey/client";

/** A key as the routes answer it (dates as JSON strings, never the key itself). */
export interface ApiKeyData {
  id: string;
  configId: string;
  name: string | null;
  start: string | null;
  prefix: string | null;
  referenceId: string;
  enabled: boolean;
  expiresAt: string | null;
  remaining: number | null;
  refillAmount: number | null;
  refillInterval: number | null;
  lastRefillAt: string | null;
  rateLimitEnabled: boolean;
  rateLimitTimeWindow: number | null;
  rateLimitMax: number | null;
  requestCount: number;
  lastRequest: string | null;
  createdAt: string;
  updatedAt: string;
  metadata: Record<string, unknown> | null;
  permissions: Record<string, string[]> | null;
}

/** `create` answers the key once, in plain text. */
export interface CreatedApiKeyData extends ApiKeyData {
  key: string;
}

/** What `create` takes from a client (the server-only fields are refused over HTTP). */
export interface CreateApiKeyBody {
  name?: string;
  expiresIn?: number | null;
  prefix?: string;
  metadata?: Record<string, unknown>;
  organizationId?: string;
  configId?: string;
}

/** What `update` takes from a client. */
export interface UpdateApiKeyBody {
  keyId: string;
  configId?: string;
  name?: string;
  enabled?: boolean;
  expiresIn?: number | null;
  metadata?: Record<string, unknown>;
  [field: string]: unknown;
}

/** Query of `list`: paging, sorting and the owner to list for. */
export interface ListApiKeysQuery {
  configId?: string;
  organizationId?: string;
  limit?: number;
  offset?: number;
  sortBy?: string;
  sortDirection?: "asc" | "desc";
}

/** A GET argument given as the query itself or, as the reference client takes it, as `{ query }`. */
type GetArgs<Q> = Q | { query: Q };

/** The methods the client gains, under the reference client's names (`authClient.apiKey.*`). */
export interface ApiKeyClientMethods {
  apiKey: {
    /** `POST /api-key/create`: the new key, with `key` shown this once. */
    create(body?: CreateApiKeyBody, options?: RequestOptions): Promise<ClientResult<CreatedApiKeyData>>;
    /** `GET /api-key/get?id`: one of the caller's keys. */
    get(args: GetArgs<{ id: string; configId?: string }>, options?: RequestOptions): Promise<ClientResult<ApiKeyData>>;
    /** `GET /api-key/list`: `{ apiKeys, total, limit, offset }`. */
    list(
      args?: GetArgs<ListApiKeysQuery>,
      options?: RequestOptions,
    ): Promise<ClientResult<{ apiKeys: ApiKeyData[]; total: number; limit?: number; offset?: number }>>;
    /** `POST /api-key/update`. */
    update(body: UpdateApiKeyBody, options?: RequestOptions): Promise<ClientResult<ApiKeyData>>;
    /** `POST /api-key/delete`: `{ success: true }`. */
    delete(body: { keyId: string; configId?: string }, options?: RequestOptions): Promise<ClientResult<{ success: boolean }>>;
  };
}

function queryOf(args: unknown): Record<string, QueryValue> | undefined {
  if (!args || typeof args !== "object") return undefined;
  const query = "query" in args ? (args as { query: unknown }).query : args;
  return query as Record<string, QueryValue> | undefined;
}

/**
 * The client plugin for `apiKey()`.
 *
 * @example
 * const client = createAuthClient({ baseURL, plugins: [apiKeyClient()] });
 * const { data } = await client.apiKey.create({ name: "ci" });
 */
export const apiKeyClient = (): ClientPlugin<ApiKeyClientMethods> & { id: "api-key" } => ({
  id: "api-key",
  methods: (call: Call) => ({
    apiKey: {
      create: (body, options) => call<CreatedApiKeyData>("/api-key/create", { ...options, method: "POST", body: body ?? {} }),
      get: (args, options) => call<ApiKeyData>("/api-key/get", { ...options, method: "GET", query: queryOf(args) }),
      list: (args, options) => call("/api-key/list", { ...options, method: "GET", query: queryOf(args) }),
      update: (body, options) => call<ApiKeyData>("/api-key/update", { ...options, method: "POST", body }),
      delete: (body, options) => call<{ success: boolean }>("/api-key/delete", { ...options, method: "POST", body }),
    },
  }),
});
