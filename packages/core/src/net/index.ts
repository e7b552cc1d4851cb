// Server-side requests to other servers: one bounded helper and its error.
export {
  boundedFetch,
  DEFAULT_FETCH_MAX_BYTES,
  DEFAULT_FETCH_TIMEOUT_MS,
  type BoundedFetchOptions,
  type FetchImplementation,
} from "./bounded-fetch.js";
export { OutboundFetchError, type OutboundFetchErrorCode } from "./outbound-fetch-error.js";
