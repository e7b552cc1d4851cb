import { describe, expect, it } from "vitest";
import { createAccessControl, role } from "../src/index.ts";

const ac = createAccessControl({
  project: ["create", "share", "delete"],
  billing: ["read", "update"],
} as const);
const editor = ac.newRole({ project: ["create", "share"], billing: ["read"] });

describe("role().authorize", () => {
  it("passes when every requested action of every resource is granted", () => {
    expect(editor.authorize({ project: ["create", "share"], billing: ["read"] })).toEqual({ success: true });
  });

  it("fails an AND request on the first resource whose actions are not all granted", () => {
    expect(editor.authorize({ project: ["create", "delete"] })).toEqual({
      success: false,
      error: 'unauthorized to access resource "project"',
    });
  });

  it("fails an AND request naming a resource the role does not grant", () => {
    const narrow = role({ project: ["create"] });
    expect(narrow.authorize({ billing: ["read"] } as never)).toEqual({
      success: false,
      error: "You are not allowed to access resource: billing",
    });
  });

  it("an OR request passes on the first authorized resource and skips unknown ones", () => {
    const narrow = role({ project: ["create"] });
    expect(narrow.authorize({ billing: ["read"], project: ["create"] } as never, "OR")).toEqual({
      success: true,
    });
    expect(narrow.authorize({ billing: ["read"] } as never, "OR")).toEqual({
      success: false,
      error: "Not authorized",
    });
    expect(editor.authorize({ project: ["delete"], billing: ["update"] }, "OR")).toEqual({
      success: false,
      error: "Not authorized",
    });
  });

  it("a resource's own connector chooses between all and any of its actions", () => {
    expect(editor.authorize({ project: { actions: ["delete", "share"], connector: "OR" } })).toEqual({
      success: true,
    });
    expect(editor.authorize({ project: { actions: ["delete", "share"], connector: "AND" } }).success).toBe(
      false,
    );
  });

  it("an empty action list, an empty request or a missing `actions` never authorizes", () => {
    expect(editor.authorize({ project: [] })).toEqual({
      success: false,
      error: 'unauthorized to access resource "project"',
    });
    expect(editor.authorize({})).toEqual({ success: false, error: "Not authorized" });
    expect(editor.authorize({ project: { connector: "OR" } } as never).success).toBe(false);
  });

  it("non-string actions never match, and an unknown connector means AND", () => {
    expect(editor.authorize({ project: [1] } as never).success).toBe(false);
    expect(editor.authorize({ project: ["create"], billing: ["update"] }, "XOR" as never).success).toBe(
      false,
    );
  });

  it("inherited property names are no resources (no prototype lookups)", () => {
    expect(editor.authorize({ toString: ["x"] } as never)).toEqual({
      success: false,
      error: "You are not allowed to access resource: toString",
    });
    expect(editor.authorize({ constructor: ["x"], project: ["create"] } as never, "OR")).toEqual({
      success: true,
    });
  });

  it("a malformed resource entry is a TypeError, as in the reference", () => {
    expect(() => editor.authorize({ project: "create" } as never)).toThrow(
      new TypeError("Invalid access control request"),
    );
  });

  it("createAccessControl keeps the statements and makes roles that keep theirs", () => {
    expect(ac.statements.project).toEqual(["create", "share", "delete"]);
    expect(editor.statements).toEqual({ project: ["create", "share"], billing: ["read"] });
  });
});
