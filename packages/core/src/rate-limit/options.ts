/** A limit: at most `max` requests per `window` seconds. */
export interface RateLimitRule {
  /** Seconds. */
  window: number;
  max: number;
}

/** What a storage answers for one request: let it through, or refuse it for `retryAfter` seconds. */
export interface RateLimitDecision {
  allowed: boolean;
  /** Seconds until the client may try again; `null` lets core use the rule's window. */
  retryAfter: number | null;
}

/** One counter in the reference's stored shape (the `rateLimit` table and the 1.x formats). */
export interface RateLimitRecord {
  key: string;
  count: number;
  /** Epoch milliseconds of the last allowed request. */
  lastRequest: number;
}

/** Custom storage that decides a request in one atomic step (the reference's 1.7 shape). */
export interface RateLimitConsumeStorage {
  consume(key: string, rule: RateLimitRule): Promise<RateLimitDecision>;
}

/**
 * Custom storage in the older read-then-write shape. Two concurrent requests may both pass a
 * stale read, so a limit is only approximate under load; prefer `consume`.
 */
export interface RateLimitGetSetStorage {
  get(key: string): Promise<RateLimitRecord | null | undefined>;
  /** `update` is true when a record for `key` was read before. */
  set(key: string, value: RateLimitRecord, update?: boolean): Promise<void>;
}

/** `rateLimit.customStorage`: `consume` is used when present, else `get`/`set`. */
export type RateLimitStorage = RateLimitConsumeStorage | RateLimitGetSetStorage;

/** A `customRules` value: a rule, `false` (no limit on that path), or a function of the request. */
export type RateLimitCustomRule =
  | RateLimitRule
  | false
  | ((
      request: Request,
      currentRule: RateLimitRule,
    ) => RateLimitRule | false | Promise<RateLimitRule | false>);

/** `rateLimit` option group, with the reference's names and defaults. */
export interface RateLimitOptions {
  /** @default process.env.NODE_ENV === "production" */
  enabled?: boolean;
  /** Seconds; 0 means the default, as in the reference. @default 10 */
  window?: number;
  /** 0 means the default, as in the reference. @default 100 */
  max?: number;
  /**
   * Rules per path (relative to `basePath`), exact (`"/sign-in/email"`) or with `*` wildcards
   * (`"/admin/*"`); the first key that matches wins over every built-in and plugin rule.
   */
  customRules?: Record<string, RateLimitCustomRule>;
  /** @default "secondary-storage" when `secondaryStorage` is set, else "memory" */
  storage?: "memory" | "database" | "secondary-storage";
  /** Table name with `storage: "database"`. @default "rateLimit" */
  modelName?: string;
  /** Column names of the `rateLimit` table. @default the field names */
  fields?: { key?: string; count?: string; lastRequest?: string };
  /** Your own storage; `storage` is then ignored. */
  customStorage?: RateLimitStorage;
}
