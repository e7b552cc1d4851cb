import type {
  AuthorizeRequest,
  AuthorizeResponse,
  Connector,
  ExactStatements,
  Role,
  Statements,
} from "./types.js";

interface ActionRequest {
  actions: readonly unknown[];
  connector: Connector;
}

const NOT_AUTHORIZED: AuthorizeResponse = { success: false, error: "Not authorized" };

/**
 * A role granting `statements`. Its `authorize` answers the way the reference's does, message for
 * message, so applications that show or log them see the same text:
 * - a resource the role does not name fails an `AND` request ("You are not allowed to access
 *   resource: <resource>") and is skipped by an `OR` request;
 * - a resource whose actions are not granted fails an `AND` request
 *   (`unauthorized to access resource "<resource>"`);
 * - an empty action list never authorizes, and a request that authorized nothing fails with
 *   "Not authorized";
 * - a connector other than `"OR"` means `"AND"` (the reference lets an unknown one pass a request
 *   when any single resource passes: DIVERGENCES.md row 64).
 *
 * @example
 * const editor = role({ post: ["create", "update"] });
 * editor.authorize({ post: ["update"] }); // { success: true }
 */
export function role<const TGranted extends Statements, TRequest extends Statements = TGranted>(
  statements: TGranted,
): Role<ExactStatements<TGranted>, TRequest> {
  return {
    statements: statements as ExactStatements<TGranted>,
    authorize(request: AuthorizeRequest<TRequest>, requestedConnector: Connector = "AND"): AuthorizeResponse {
      // Anything but "OR" is "AND": a connector from untyped input never loosens the check.
      const connector: Connector = requestedConnector === "OR" ? "OR" : "AND";
      let authorizedAny = false;
      for (const [resource, requested] of Object.entries(request as Record<string, unknown>)) {
        const granted = Object.hasOwn(statements, resource) ? statements[resource] : undefined;
        if (granted === undefined) {
          if (connector === "OR") continue;
          return { success: false, error: `You are not allowed to access resource: ${resource}` };
        }
        const passed = grants(granted, actionRequest(requested));
        if (passed && connector === "OR") return { success: true };
        if (!passed && connector === "AND")
          return { success: false, error: `unauthorized to access resource "${resource}"` };
        authorizedAny ||= passed;
      }
      return authorizedAny ? { success: true } : NOT_AUTHORIZED;
    },
  };
}

/** Reads one resource's part of a request: a plain list means all of these actions. */
function actionRequest(requested: unknown): ActionRequest {
  if (Array.isArray(requested)) return { actions: requested, connector: "AND" };
  if (requested === null || typeof requested !== "object")
    throw new TypeError("Invalid access control request");
  const { actions, connector } = requested as { actions?: unknown; connector?: unknown };
  return { actions: Array.isArray(actions) ? actions : [], connector: connector === "OR" ? "OR" : "AND" };
}

function grants(granted: readonly string[], { actions, connector }: ActionRequest): boolean {
  if (actions.length === 0) return false;
  const allowed = (action: unknown) => typeof action === "string" && granted.includes(action);
  return connector === "OR" ? actions.some(allowed) : actions.every(allowed);
}
