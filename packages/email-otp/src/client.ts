// Browser-safe entry (`@latchkey/email-otp/client`): the routes as `@latchkey/client` methods,
// under the names the reference client derives from the paths. Type-only imports.
import type { Call, ClientPlugin, ClientResult, RequestOptions } from "@latchkey/client";

/** What a code is for. */
export type EmailOTPType = "email-verification" | "sign-in" | "forget-password" | "change-email";

/** A user as the routes answer it (dates as JSON strings). */
export type EmailOTPUser = { id: string; email: string; name: string; emailVerified: boolean } & Record<string, unknown>;

type Success = ClientResult<{ success: boolean }>;

/** The methods the client gains (`client.emailOtp.*`, `client.signIn.emailOtp`, `client.forgetPassword.emailOtp`). */
export interface EmailOTPClientMethods {
  emailOtp: {
    /** `POST /email-otp/send-verification-otp` */
    sendVerificationOtp(body: { email: string; type: Exclude<EmailOTPType, "change-email"> }, options?: RequestOptions): Promise<Success>;
    /** `POST /email-otp/check-verification-otp`: checks a code without using it up. */
    checkVerificationOtp(body: { email: string; type: EmailOTPType; otp: string }, options?: RequestOptions): Promise<Success>;
    /** `POST /email-otp/verify-email` */
    verifyEmail(
      body: { email: string; otp: string },
      options?: RequestOptions,
    ): Promise<ClientResult<{ status: boolean; token: string | null; user: EmailOTPUser }>>;
    /** `POST /email-otp/request-password-reset` */
    requestPasswordReset(body: { email: string }, options?: RequestOptions): Promise<Success>;
    /** `POST /email-otp/reset-password` */
    resetPassword(body: { email: string; otp: string; password: string }, options?: RequestOptions): Promise<Success>;
    /** `POST /email-otp/request-email-change` */
    requestEmailChange(body: { newEmail: string; otp?: string }, options?: RequestOptions): Promise<Success>;
    /** `POST /email-otp/change-email` */
    changeEmail(body: { newEmail: string; otp: string }, options?: RequestOptions): Promise<Success>;
  };
  signIn: {
    /** `POST /sign-in/email-otp`: `{ token, user }` and the session cookie. */
    emailOtp(
      body: { email: string; otp: string; name?: string; image?: string } & Record<string, unknown>,
      options?: RequestOptions,
    ): Promise<ClientResult<{ token: string; user: EmailOTPUser }>>;
  };
  forgetPassword: {
    /** `POST /forget-password/email-otp` (deprecated name of `emailOtp.requestPasswordReset`). */
    emailOtp(body: { email: string }, options?: RequestOptions): Promise<Success>;
  };
}

/**
 * The client plugin for `emailOTP()`.
 *
 * @example
 * const client = createAuthClient({ baseURL, plugins: [emailOTPClient()] });
 * await client.emailOtp.sendVerificationOtp({ email, type: "sign-in" });
 * await client.signIn.emailOtp({ email, otp });
 */
export const emailOTPClient = (): ClientPlugin<EmailOTPClientMethods> & { id: "email-otp" } => ({
  id: "email-otp",
  methods: (call: Call) => {
    const post =
      <T>(path: string) =>
      (body: unknown, options?: RequestOptions) =>
        call<T>(path, { method: "POST", body, ...options });
    return {
      emailOtp: {
        sendVerificationOtp: post("/email-otp/send-verification-otp"),
        checkVerificationOtp: post("/email-otp/check-verification-otp"),
        verifyEmail: post("/email-otp/verify-email"),
        requestPasswordReset: post("/email-otp/request-password-reset"),
        resetPassword: post("/email-otp/reset-password"),
        requestEmailChange: post("/email-otp/request-email-change"),
        changeEmail: post("/email-otp/change-email"),
      },
      signIn: { emailOtp: post("/sign-in/email-otp") },
      forgetPassword: { emailOtp: post("/forget-password/email-otp") },
    };
  },
});
