// Public entry of @latchkey/client: browser-safe, no runtime dependencies.
export { createAuthClient, type AuthClient, type AuthClientOptions } from "./client.js";
export type { CoreMethods } from "./core-methods.js";
export type { ClientPlugin, Merge, PluginList, WithPlugins } from "./plugins.js";
export type { Call, CallOptions, ClientError, ClientResult, QueryValue, RequestOptions } from "./result.js";
export type { FetchLike } from "./transport.js";
export type * from "./models.js";
export type * from "./arguments.js";
