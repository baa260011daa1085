#!/usr/bin/env python3
"""Writes docs/SCENARIO-REFERENCE.md from scenarios/schema.json.

The schema is the source: every field's unit, default and reason live in its description.
Run after editing the schema: python3 tools/docs/scenario_reference.py (tools/docs/regenerate
runs it after writing the schema's fault part, which is generated from sim/config/faults.h).
A test (tests/scenario/reference_test.cc) fails when the two disagree.
"""
import json
import pathlib

ROOT = pathlib.Path(__file__).resolve().parents[2]


def type_of(prop):
    if "const" in prop:
        return f"`{json.dumps(prop['const'])}`"
    if "$ref" in prop:
        return prop["$ref"].split("/")[-1]
    if "oneOf" in prop or "anyOf" in prop:
        parts = [type_of(p) for p in prop.get("oneOf", prop.get("anyOf", []))]
        return " or ".join(parts)
    if "properties" in prop:
        return "object (fields below)"
    t = prop.get("type", "")
    if isinstance(t, list):
        t = " or ".join(t)
    if t == "array" and "items" in prop:
        return "array of " + type_of(prop["items"])
    if "enum" in prop:
        return "one of " + ", ".join(f"`{v}`" for v in prop["enum"])
    return t or "value"


def sections(title, prop):
    """(title, description, properties, required) for every inline object at or under `prop`:
    a field's object is "Parent.field", an array's items "Parent.field[]", the alternatives of a
    oneOf/anyOf "Parent.field (form N)". Objects named in $defs have their own section."""
    out = []
    if "properties" in prop:
        out.append((title, prop.get("description", ""), prop["properties"],
                    prop.get("required", [])))
        for name, child in prop["properties"].items():
            out += sections(f"{title}.{name}", child)
    if isinstance(prop.get("items"), dict):
        out += sections(title + "[]", prop["items"])
    # Alternatives that only state which fields a form requires (no descriptions) are rules for
    # validators, not fields.
    alternatives = [a for a in prop.get("oneOf", prop.get("anyOf", []))
                    if any("description" in p for p in a.get("properties", {}).values())
                    or "items" in a]
    for i, alternative in enumerate(alternatives, 1):
        out += sections(f"{title} (form {i})" if len(alternatives) > 1 else title, alternative)
    return out


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
        for title, desc, props, required in sections(name, d):
            out += ["", f"## {title}", "", desc, "", table(props, required)]
    (ROOT / "docs/SCENARIO-REFERENCE.md").write_text("\n".join(out) + "\n")


if __name__ == "__main__":
    main()
