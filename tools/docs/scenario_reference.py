#!/usr/bin/env python3
"""Writes docs/SCENARIO-REFERENCE.md from scenarios/schema.json.

The schema is the source: every field's unit, default and reason live in its description.
Run after editing the schema: python3 tools/docs/scenario_reference.py
A test (tests/scenario/reference_test.cc) fails when the two disagree.
"""
import json
import pathlib

ROOT = pathlib.Path(__file__).resolve().parents[2]


def type_of(prop):
    if "$ref" in prop:
        return prop["$ref"].split("/")[-1]
    if "oneOf" in prop or "anyOf" in prop:
        parts = [type_of(p) for p in prop.get("oneOf", prop.get("anyOf", []))]
        return " or ".join(parts)
    t = prop.get("type", "")
    if isinstance(t, list):
        t = " or ".join(t)
    if t == "array" and "items" in prop:
        return "array of " + type_of(prop["items"])
    if "enum" in prop:
        return "one of " + ", ".join(f"`{v}`" for v in prop["enum"])
    return t or "value"


def table(props, required):
    lines = ["| field | type | description |", "|---|---|---|"]
    for name, prop in props.items():
        desc = prop.get("description", "").replace("|", "\\|").replace("\n", " ")
        req = " **Required.**" if name in required and "Required" not in desc else ""
        lines.append(f"| `{name}` | {type_of(prop).replace('|', '/')} | {desc}{req} |")
    return "\n".join(lines)


def main():
    schema = json.loads((ROOT / "scenarios/schema.json").read_text())
    out = [
        "# Scenario reference",
        "",
        "Generated from `scenarios/schema.json` by `tools/docs/scenario_reference.py`; do not edit",
        "by hand. Every field with its unit, default and why you would change it. `drainsim check`",
        "applies the cross-field rules as well; `drainsim dump` shows a scenario with every default.",
        "",
        "## Scenario (top level)",
        "",
        schema.get("description", ""),
        "",
        table(schema["properties"], schema.get("required", [])),
    ]
    for name, d in schema["$defs"].items():
        if "properties" not in d:
            if "enum" in d:
                out += ["", f"## {name}", "", d.get("description", ""), "",
                        "Values: " + ", ".join(f"`{v}`" for v in d["enum"])]
            continue
        out += ["", f"## {name}", "", d.get("description", ""), "",
                table(d["properties"], d.get("required", []))]
    (ROOT / "docs/SCENARIO-REFERENCE.md").write_text("\n".join(out) + "\n")


if __name__ == "__main__":
    main()
