// Browser-safe entry (`@latchkey/two-factor/client`): the routes as `@latchkey/client` methods
// under the reference client's names. Type-only imports, so no server code reaches a bundle.
import type { Call, ClientResult, RequestOptions, SignInEmailArgs, SignInResult, User } from "@latchkey/client";

/** The answer of a password sign-in that needs the second factor. */
export interface TwoFactorRedirect {
  twoFactorRedirect: true;
  twoFactorMethods: string[];
}

/** A verified second factor: the session token and the user. */
export interface TwoFactorVerified {
  token: string;
  user: User & { twoFactorEnabled?: boolean };
}

/** Options of `twoFactorClient()`, as the reference's. */
export interface TwoFactorClientOptions {
  /** Called when a sign-in answers `twoFactorRedirect` (instead of navigating to `twoFactorPage`). */
  onTwoFactorRedirect?: (context: { twoFactorMethods: string[] }) => void | Promise<void>;
  /** Page a browser is sent to when a sign-in needs the second factor and no callback is given. */
  twoFactorPage?: string;
}

type Method<Args, T> = (args: Args, options?: RequestOptions) => Promise<ClientResult<T>>;

/** The methods the client gains: `client.twoFactor.*`, and `signIn.email` aware of the redirect. */
export interface TwoFactorClientMethods {
  twoFactor: {
    /** `POST /two-factor/enable`. */
    enable: Method<{ password?: string; method?: "totp" | "otp"; issuer?: string }, { method: "totp" | "otp"; totpURI?: string; backupCodes?: string[] }>;
    /** `POST /two-factor/disable`. */
    disable: Method<{ password?: string }, { status: boolean }>;
    /** `POST /two-factor/get-totp-uri`. */
    getTotpUri: Method<{ password?: string }, { totpURI: string }>;
    /** `POST /two-factor/verify-totp`. */
    verifyTotp: Method<{ code: string; trustDevice?: boolean }, TwoFactorVerified>;
    /** `POST /two-factor/send-otp`. */
    sendOtp: (args?: { trustDevice?: boolean }, options?: RequestOptions) => Promise<ClientResult<{ status: boolean }>>;
    /** `POST /two-factor/verify-otp`. */
    verifyOtp: Method<{ code: string; trustDevice?: boolean }, TwoFactorVerified>;
    /** `POST /two-factor/verify-backup-code`. */
    verifyBackupCode: Method<{ code: string; disableSession?: boolean; trustDevice?: boolean }, TwoFactorVerified>;
    /** `POST /two-factor/generate-backup-codes`. */
    generateBackupCodes: Method<{ password?: string }, { status: boolean; backupCodes: string[] }>;
  };
  signIn: {
    /** `POST /sign-in/email`; a `twoFactorRedirect` answer calls `onTwoFactorRedirect` (or goes to `twoFactorPage`). */
    email: Method<SignInEmailArgs, SignInResult | TwoFactorRedirect>;
  };
}

/** Only http(s) and relative URLs are navigated to: never `javascript:` or `data:`. */
const isSafePage = (page: string): boolean => !/^[a-z][a-z0-9+.-]*:/i.test(page) || /^https?:/i.test(page);

/**
 * The client plugin for `twoFactor()`.
 *
 * @example
 * const client = createAuthClient({ baseURL, plugins: [twoFactorClient({ onTwoFactorRedirect: () => showCodeForm() })] });
 * await client.signIn.email({ email, password });
 * await client.twoFactor.verifyTotp({ code });
 */
export const twoFactorClient = (options: TwoFactorClientOptions = {}) => ({
  id: "two-factor" as const,
  methods: (call: Call): TwoFactorClientMethods => {
    const post =
      <Args, T>(path: string) =>
      (args?: Args, request?: RequestOptions): Promise<ClientResult<T>> =>
        call<T>(`/two-factor/${path}`, { ...request, method: "POST", body: args ?? {} });
    return {
      twoFactor: {
        enable: post("enable"),
        disable: post("disable"),
        getTotpUri: post("get-totp-uri"),
        verifyTotp: post("verify-totp"),
        sendOtp: post("send-otp"),
        verifyOtp: post("verify-otp"),
        verifyBackupCode: post("verify-backup-code"),
        generateBackupCodes: post("generate-backup-codes"),
      },
      signIn: {
        email: async (args, request) => {
          const result = await call<SignInResult | TwoFactorRedirect>("/sign-in/email", { ...request, method: "POST", body: args });
          if (result.data && "twoFactorRedirect" in result.data && result.data.twoFactorRedirect) {
            if (options.onTwoFactorRedirect) await options.onTwoFactorRedirect({ twoFactorMethods: result.data.twoFactorMethods });
            else if (options.twoFactorPage && typeof window !== "undefined" && isSafePage(options.twoFactorPage)) {
              window.location.href = options.twoFactorPage;
            }
          }
          return result;
        },
      },
    };
  },
});
