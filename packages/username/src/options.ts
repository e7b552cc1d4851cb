/** When a validator sees the value: as sent, or after its normaliser ran. */
export type ValidationStage = "pre-normalization" | "post-normalization";

/** Options of `username()`, under the reference's names. */
export interface UsernameOptions {
  /** Shortest username accepted. @default 3 */
  minUsernameLength?: number | undefined;
  /** Longest username accepted. @default 30 */
  maxUsernameLength?: number | undefined;
  /** Accepts or refuses a username. @default letters, digits, `_` and `.` only */
  usernameValidator?: ((username: string) => boolean | Promise<boolean>) | undefined;
  /** Accepts or refuses a display username. @default any */
  displayUsernameValidator?: ((displayUsername: string) => boolean | Promise<boolean>) | undefined;
  /** How a username is stored and looked up; `false` keeps it as sent. @default lower-case */
  usernameNormalization?: ((username: string) => string) | false | undefined;
  /** How a display username is stored. @default as sent */
  displayUsernameNormalization?: ((displayUsername: string) => string) | undefined;
  /** Which form the validators see. @default both "pre-normalization" */
  validationOrder?: { username?: ValidationStage | undefined; displayUsername?: ValidationStage | undefined } | undefined;
  /** `false`: no `displayUsername` column. @default true */
  displayUsername?: boolean | undefined;
  /** Once set, `/update-user` may not change the username. @default false */
  immutableUsername?: boolean | undefined;
  /** Physical column names: `{ user: { fields: { username: "user_name" } } }`. */
  schema?: { user?: { fields?: { username?: string; displayUsername?: string } } } | undefined;
}

/** The options with defaults applied: every rule as a function. */
export interface ResolvedUsernameOptions {
  minLength: number;
  maxLength: number;
  validate: (username: string) => boolean | Promise<boolean>;
  validateDisplay: ((displayUsername: string) => boolean | Promise<boolean>) | undefined;
  normalize: (username: string) => string;
  normalizeDisplay: (displayUsername: string) => string;
  validateNormalizedUsername: boolean;
  validateNormalizedDisplay: boolean;
  displayUsername: boolean;
  immutableUsername: boolean;
  columns: { username: string; displayUsername: string };
}

const DEFAULT_PATTERN = /^[a-zA-Z0-9_.]+$/;

/** Applies the defaults once; lengths that are not positive integers (min ≤ max) are a `TypeError`. */
export function resolveUsernameOptions(options: UsernameOptions = {}): ResolvedUsernameOptions {
  // `||` as the reference: 0 means the default.
  const minLength = options.minUsernameLength || 3;
  const maxLength = options.maxUsernameLength || 30;
  if (!Number.isInteger(minLength) || !Number.isInteger(maxLength) || minLength < 1 || minLength > maxLength) {
    throw new TypeError("username: minUsernameLength and maxUsernameLength must be positive integers, min ≤ max");
  }
  const custom = options.usernameNormalization;
  return {
    minLength,
    maxLength,
    validate: options.usernameValidator ?? ((name) => DEFAULT_PATTERN.test(name)),
    validateDisplay: options.displayUsernameValidator,
    normalize: custom === false ? (name) => name : (custom ?? ((name) => name.toLowerCase())),
    normalizeDisplay: options.displayUsernameNormalization ?? ((name) => name),
    validateNormalizedUsername: options.validationOrder?.username === "post-normalization",
    validateNormalizedDisplay: options.validationOrder?.displayUsername === "post-normalization",
    displayUsername: options.displayUsername !== false,
    immutableUsername: options.immutableUsername === true,
    columns: {
      username: options.schema?.user?.fields?.username ?? "username",
      displayUsername: options.schema?.user?.fields?.displayUsername ?? "displayUsername",
    },
  };
}
