import { BetterAuthError } from "@latchkey/core";
import { expect } from "vitest";

/** A marker put inside hostile values: an error message that contains it echoed the value. */
export const MARKER = "hostile-marker-7f3a";

/**
 * Asserts that `attempt` fails with a `BetterAuthError` naming `model.field` (the adapter's
 * own refusal, not a driver error) and leaving the hostile value out of the message.
 */
export async function expectRefused(attempt: Promise<unknown>, model: string, field: string): Promise<void> {
  const error: unknown = await attempt.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error, `${model}.${field} was accepted`).toBeInstanceOf(BetterAuthError);
  const message = (error as Error).message;
  expect(message).toContain(`"${model}.${field}"`);
  expect(message).not.toContain(MARKER);
}
