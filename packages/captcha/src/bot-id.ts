import { CAPTCHA_INTERNAL_ERRORS } from "./error-codes.js";
import type { VercelBotIdOptions } from "./options.js";

/**
 * Vercel BotID's verdict on `request`: `validateRequest` when given, else "not a bot". A check
 * that throws or outlasts `timeout` ms throws SERVICE_UNAVAILABLE (the caller fails closed).
 */
export async function botIdAllows(options: VercelBotIdOptions, request: Request, timeout: number): Promise<boolean> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error("BotID check timed out")), timeout);
  });
  const verdict = (async (): Promise<boolean> => {
    const verification = await options.checkBotId();
    return options.validateRequest ? options.validateRequest({ request, verification }) : verification.isBot === false;
  })();
  try {
    return (await Promise.race([verdict, expired])) === true;
  } catch (cause) {
    throw new Error(CAPTCHA_INTERNAL_ERRORS.SERVICE_UNAVAILABLE, { cause });
  } finally {
    clearTimeout(timer);
  }
}
