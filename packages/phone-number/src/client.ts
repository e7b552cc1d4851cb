// Browser-safe entry (`@latchkey/phone-number/client`): the routes as `@latchkey/client` methods.
// Type-only imports, so no server code reaches a bundle.
import type { Call, ClientPlugin, ClientResult } from "@latchkey/client";

/** A user as the routes answer it (dates as JSON strings). */
export interface PhoneNumberUser extends Record<string, unknown> {
  id: string;
  email: string;
  name: string;
  phoneNumber?: string | null;
  phoneNumberVerified?: boolean | null;
}

/** The methods the client gains, under the reference client's names. */
export interface PhoneNumberClientMethods {
  signIn: {
    /** `POST /sign-in/phone-number`. */
    phoneNumber(body: {
      phoneNumber: string;
      password: string;
      rememberMe?: boolean;
    }): Promise<ClientResult<{ token: string; user: PhoneNumberUser }>>;
  };
  phoneNumber: {
    /** `POST /phone-number/send-otp`. */
    sendOtp(body: { phoneNumber: string }): Promise<ClientResult<{ message: string }>>;
    /** `POST /phone-number/verify` (other keys: the new user's additional fields). */
    verify(
      body: {
        phoneNumber: string;
        code: string;
        disableSession?: boolean;
        updatePhoneNumber?: boolean;
      } & Record<string, unknown>,
    ): Promise<ClientResult<{ status: boolean; token: string | null; user: PhoneNumberUser }>>;
    /** `POST /phone-number/request-password-reset`. */
    requestPasswordReset(body: { phoneNumber: string }): Promise<ClientResult<{ status: boolean }>>;
    /** `POST /phone-number/reset-password`. */
    resetPassword(body: {
      otp: string;
      phoneNumber: string;
      newPassword: string;
    }): Promise<ClientResult<{ status: boolean }>>;
  };
}

/**
 * The client plugin for `phoneNumber()`.
 *
 * @example
 * const client = createAuthClient({ baseURL, plugins: [phoneNumberClient()] });
 * await client.phoneNumber.sendOtp({ phoneNumber: "+15555550100" });
 */
export const phoneNumberClient = (): ClientPlugin<PhoneNumberClientMethods> & { id: "phone-number" } => ({
  id: "phone-number",
  methods: (call: Call) => ({
    signIn: { phoneNumber: (body) => call("/sign-in/phone-number", { method: "POST", body }) },
    phoneNumber: {
      sendOtp: (body) => call("/phone-number/send-otp", { method: "POST", body }),
      verify: (body) => call("/phone-number/verify", { method: "POST", body }),
      requestPasswordReset: (body) => call("/phone-number/request-password-reset", { method: "POST", body }),
      resetPassword: (body) => call("/phone-number/reset-password", { method: "POST", body }),
    },
  }),
});
