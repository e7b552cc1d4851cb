import { CLIENT } from "./flow.ts";

/** The `Authorization` header of RFC 6749 §2.3.1 client authentication with the test client. */
export const BASIC_AUTH = `Basic ${Buffer.from(`${CLIENT.clientId}:${CLIENT.clientSecret}`).toString("base64")}`;
