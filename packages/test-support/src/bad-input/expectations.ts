/** Groups of cases; an expectation keyed by a family applies to each case in it. */
export type CaseFamily =
  | "malformed JSON"
  | "JSON array"
  | "JSON null"
  | "JSON string"
  | "JSON number"
  | "JSON boolean"
  | "empty object"
  | "missing field"
  | "wrong type"
  | "extra fields"
  | "prototype keys"
  | "oversized body"
  | "oversized string"
  | "content type"
  | "no content type"
  | "no body"
  | "empty JSON body"
  | "repeated key"
  | "huge value"
  | "array key"
  | "invalid percent-encoding"
  | "control characters";

/** What a case must answer beyond the battery's rules (status < 500, JSON 4xx, no write). */
export interface CaseExpectation {
  /** The status, or the statuses allowed. */
  status?: number | readonly number[];
  /** The error body's `code`; `null` where the reference answers a `message` and no code. */
  code?: string | null;
  /** The error body's `message`. */
  message?: string;
  /** The case may write rows (e.g. a valid sign-in that ignores an extra field). */
  writes?: boolean;
  /** Leave the case out; say why. */
  skip?: string;
}

/** Expectations by case name (`"wrong type: email as number"`) or by family (`"wrong type"`). */
export type CaseExpectations = Partial<Record<string, CaseExpectation>>;

/** Core's answer to a body or query its schema refuses (the reference's code). */
export const VALIDATION_ERROR: CaseExpectation = { status: 400, code: "VALIDATION_ERROR" };

/**
 * What core decides for every route before route code runs, so each package need not repeat
 * it. The two empty-body cases are left open on purpose: their answers are changing in core,
 * and the battery's rules (4xx with a JSON code, or 2xx; never a write) hold either way.
 */
export const CORE_EXPECTATIONS: CaseExpectations = {
  "malformed JSON": { status: 400 },
  "oversized body": { status: 413, code: "PAYLOAD_TOO_LARGE" },
  "content type": { status: 415, code: "UNSUPPORTED_MEDIA_TYPE" },
};

/** The first expectation found for a case, most specific source first. */
export function expectationFor(
  name: string,
  family: CaseFamily,
  sources: ReadonlyArray<CaseExpectations | undefined>,
): CaseExpectation {
  for (const source of sources) {
    const found = source?.[name] ?? source?.[family];
    if (found) return found;
  }
  return {};
}
