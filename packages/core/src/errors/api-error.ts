/** HTTP status names the reference uses, and their numbers. */
export const STATUS = {
  OK: 200,
  FOUND: 302,
  BAD_REQUEST: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  CONFLICT: 409,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  EXPECTATION_FAILED: 417,
  UNPROCESSABLE_ENTITY: 422,
  TOO_MANY_REQUESTS: 429,
  INTERNAL_SERVER_ERROR: 500,
} as const;

export type StatusName = keyof typeof STATUS;

/** The JSON body of an error response: `{message, code}` in the common case. */
export interface APIErrorBody {
  message?: string;
  code?: string;
  [key: string]: unknown;
}

/**
 * An error a route answers with: a status, an optional JSON body and extra headers. A body
 * of `undefined` sends no body (the reference does this for a few 401/404 answers).
 */
export class APIError extends Error {
  readonly status: number;
  readonly statusName: string;
  readonly body: APIErrorBody | undefined;
  readonly headers: Headers;

  constructor(status: StatusName | number, body?: APIErrorBody, headers?: HeadersInit) {
    super(body?.message ?? (typeof status === "string" ? status : String(status)));
    this.name = "APIError";
    this.status = typeof status === "number" ? status : STATUS[status];
    this.statusName = typeof status === "string" ? status : String(status);
    this.body = body;
    this.headers = new Headers(headers);
  }

  /** An error whose body is `{message, code}` for one entry of an error-code map. */
  static from(status: StatusName | number, code: string, message: string): APIError {
    return new APIError(status, { message, code });
  }
}

/** A programmer or storage error (misuse, broken invariants); answered as a generic 500. */
export class BetterAuthError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "BetterAuthError";
  }
}
