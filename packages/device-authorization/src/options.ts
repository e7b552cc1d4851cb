import { parseDuration } from "./duration.js";

/** Physical names for the `deviceCode` table and its columns (the reference's `schema` option). */
export interface DeviceAuthorizationSchemaOptions {
  deviceCode?: {
    modelName?: string;
    fields?: Partial<Record<
      "deviceCode" | "userCode" | "userId" | "expiresAt" | "status" | "lastPolledAt" | "pollingInterval" | "clientId" | "scope" | "oauthClientId" | "resources",
      string
    >>;
  };
}

/** Options of `deviceAuthorization()`, under the reference's names. */
export interface DeviceAuthorizationOptions {
  /** Lifetime of a device code, as a duration string. @default "30m" */
  expiresIn?: string | undefined;
  /** Least time between two polls of `/device/token`, as a duration string. @default "5s" */
  interval?: string | undefined;
  /** Length of generated device codes (`a-zA-Z0-9`), at most 191. @default 40 */
  deviceCodeLength?: number | undefined;
  /** Length of generated user codes (`ABCDEFGHJKLMNPQRSTUVWXYZ23456789`), at most 191. @default 8 */
  userCodeLength?: number | undefined;
  /** Makes device codes instead of the default generator. */
  generateDeviceCode?: (() => string | Promise<string>) | undefined;
  /** Makes user codes instead of the default generator (such codes are then matched exactly). */
  generateUserCode?: (() => string | Promise<string>) | undefined;
  /** Accepts or refuses a `client_id` on `/device/code` and `/device/token`. Without it every client id is accepted. */
  validateClient?: ((clientId: string) => boolean | Promise<boolean>) | undefined;
  /** Called for every accepted `/device/code` request, before the codes are made. */
  onDeviceAuthRequest?: ((clientId: string, scope: string | undefined) => void | Promise<void>) | undefined;
  /** Where users enter their code: an absolute URL, or a path resolved against the base URL's origin. @default "/device" */
  verificationUri?: string | undefined;
  /** Table and column names. */
  schema?: DeviceAuthorizationSchemaOptions | undefined;
}

/** The options with defaults applied and durations in milliseconds. */
export interface ResolvedDeviceAuthorizationOptions extends DeviceAuthorizationOptions {
  expiresInMs: number;
  intervalMs: number;
  deviceCodeLength: number;
  userCodeLength: number;
}

const MAX_CODE_LENGTH = 191;

function duration(name: string, value: string | undefined, fallback: string, allowZero: boolean): number {
  const text = value ?? fallback;
  const ms = typeof text === "string" ? parseDuration(text) : undefined;
  if (ms === undefined || !Number.isFinite(ms) || ms < 0 || (!allowZero && ms === 0)) {
    throw new TypeError(`deviceAuthorization: ${name} must be a ${allowZero ? "non-negative" : "positive"} duration such as "30m" or "5s"`);
  }
  return ms;
}

function length(name: string, value: number | undefined, fallback: number): number {
  const n = value ?? fallback;
  if (!Number.isInteger(n) || n <= 0 || n > MAX_CODE_LENGTH) {
    throw new TypeError(`deviceAuthorization: ${name} must be a whole number from 1 to ${MAX_CODE_LENGTH}`);
  }
  return n;
}

function optionalFunction(name: string, value: unknown): void {
  if (value !== undefined && typeof value !== "function") throw new TypeError(`deviceAuthorization: ${name} must be a function`);
}

/** Applies the defaults once; a value the reference's option schema refuses is a `TypeError` here. */
export function resolveDeviceAuthorizationOptions(options: DeviceAuthorizationOptions = {}): ResolvedDeviceAuthorizationOptions {
  if (typeof options !== "object" || options === null) throw new TypeError("deviceAuthorization: options must be an object");
  for (const name of ["generateDeviceCode", "generateUserCode", "validateClient", "onDeviceAuthRequest"] as const) {
    optionalFunction(name, options[name]);
  }
  if (options.verificationUri !== undefined && typeof options.verificationUri !== "string") {
    throw new TypeError("deviceAuthorization: verificationUri must be a string");
  }
  return {
    ...options,
    expiresInMs: duration("expiresIn", options.expiresIn, "30m", false),
    intervalMs: duration("interval", options.interval, "5s", true),
    deviceCodeLength: length("deviceCodeLength", options.deviceCodeLength, 40),
    userCodeLength: length("userCodeLength", options.userCodeLength, 8),
  };
}
