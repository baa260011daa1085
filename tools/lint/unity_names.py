#!/usr/bin/env python3
"""tools/lint/unity_names.py: can the product libraries be unity-built without a silent change?

    tools/lint/unity_names.py --libraries BUILD/static_libraries.txt [--root DIR]
                              [--header-dirs DIR ...] [--list]

A unity build (cmake/unity_libraries.cmake) compiles several .cc files of a library as one
translation unit. What one file declares for itself then reaches the files after it: the names
of its anonymous namespaces (one namespace per enclosing namespace in a translation unit), its
`static` functions and variables, its namespace-scope `using` declarations, directives and
namespace aliases, and its macros. A file-local helper that shares a name with a function
another file calls can take that call over with no diagnostic (seen here: backtest_report.cc's
file-local `Number` took the calls compare_report.cc, the next file of its batch, meant for
reports/table.h's `Number`; twelve tests failed at run time, the compiler said nothing).

The check, conservative by design (a false alarm costs a rename, a miss a wrong binary):
  1. no two .cc files of one static library (as cmake/unity_libraries.cmake lists them in
     BUILD/static_libraries.txt) declare file-local names that a unity build could confuse
     silently: two functions of one name in one namespace (overloads: a call may take the
     other), or a name in a namespace inside the other's (it hides the other). The whole
     library, not one batch: batches shift as files are added;
  2. no file-local name could so take the place of a name a project header declares (any .h
     under --header-dirs, default the product folders);
  3. no .cc file has a namespace-scope `using namespace`, and every macro a .cc file defines
     is #undef'd in it;
  4. no .cc file uses a name that only another file of its library declares file-locally and
     that neither it nor a header declares (it would compile only in a unity build, there
     calling the neighbour's: seen here when a rename left one use of the old name).
It is not a C++ parser: comments, string and character literals are stripped, preprocessor
lines set aside, braces tracked, and each namespace-scope declaration read for the one name it
declares. Declarations a macro expands to are not seen (the product has none at namespace
scope); a function and a variable are told apart by the '(' after the name.

Exit status: 0 clean, 1 with one line per finding (file:line: name, and the other place).
--list prints every file-local name found, for a reader who wants to see what was checked.
"""
import argparse
import collections
import os
import re
import sys

Entity = collections.namedtuple("Entity", "name kind namespace line internal target")
PRODUCT_DIRS = ["sim", "chaos", "reports", "experiments", "live", "tools", "python"]
IDENT = r"[A-Za-z_]\w*"
KEYWORDS = {
    "if", "for", "while", "switch", "return", "sizeof", "alignof", "decltype", "static_assert",
    "operator", "new", "delete", "throw", "catch", "noexcept", "requires", "typeid",
}


def strip(text):
    """Comments, string and character literals become spaces; newlines stay (line numbers)."""
    out, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i))
            i = j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif c == "R" and text.startswith('R"', i) and (i == 0 or not (text[i - 1].isalnum() or text[i - 1] == "_")):
            k = text.find("(", i)
            delim = ")" + text[i + 2:k] + '"'
            j = text.find(delim, k)
            j = n if j < 0 else j + len(delim)
            out.append('""' + re.sub(r"[^\n]", " ", text[i + 2:j]))
            i = j
        elif c in "\"'":
            # A digit separator (1'000) is not a character literal.
            if c == "'" and i > 0 and text[i - 1].isalnum() and i + 1 < n and text[i + 1].isalnum():
                out.append(" ")
                i += 1
                continue
            j = i + 1
            while j < n and text[j] != c:
                j += 2 if text[j] == "\\" else 1
            out.append(c + " " * (j - i - 1) + c)
            i = j + 1
        else:
            out.append(c)
            i += 1
    return "".join(out)


def declared(statement):
    """(name, kind, target) of what a namespace-scope declaration declares, or None (a
    definition of a class member or of another namespace's entity, an operator, a deduction
    guide or an unnamed thing declares no new name here). kind: type, alias (a type alias, a
    namespace alias or a using-declaration; target is what it names), function or variable."""
    s = re.sub(r"^\s*template\s*<[^{;]*?>\s*(?=[A-Za-z])", "", statement.strip())
    s = re.sub(r"\[\[[^\]]*\]\]", " ", s)
    m = re.match(r"typedef\s(.*?)\b(" + IDENT + r")\s*$", s, re.S)
    if m:
        return m.group(2), "alias", " ".join(m.group(1).split())
    m = re.match(r"(?:struct|class|union|enum(?:\s+class|\s+struct)?)\s+(" + IDENT + r")", s)
    if m:
        return m.group(1), "type", None
    m = re.match(r"(?:using|namespace)\s+(" + IDENT + r")\s*=\s*(.*)$", s, re.S)
    if m:
        return m.group(1), "alias", " ".join(m.group(2).split())
    m = re.match(r"using\s+(?:typename\s+)?((?:[\w:]*::)?(" + IDENT + r"))\s*$", s, re.S)
    if m:
        return m.group(2), "alias", m.group(1).lstrip(":")
    # A function or a variable: the identifier before the first '(' / '=' / '{' / '[' at
    # template depth 0, unless it is qualified (a member or another namespace's entity).
    depth, cut = 0, len(s)
    for idx, ch in enumerate(s):
        if ch == "<":
            depth += 1
        elif ch == ">" and depth > 0:
            depth -= 1
        elif depth == 0 and ch in "(={[;":
            cut = idx
            break
    head = s[:cut].rstrip()
    m = re.search(r"(~?)(" + IDENT + r")$", head)
    if not m or m.group(1) or m.group(2) in KEYWORDS:
        return None
    before = head[: m.start()].rstrip()
    if before.endswith("::") or "operator" in head.split() or not before:
        return None
    return m.group(2), ("function" if s[cut:cut + 1] == "(" else "variable"), None


def scan(path):
    """(file_local, public, problems): names with line numbers, from one file."""
    raw = open(path, encoding="utf-8").read()
    text = strip(raw)
    local, public, problems = [], [], []
    # Macros: a .cc's #define must be #undef'd in the same file.
    if path.endswith(".cc"):
        defined = {m.group(1): text.count("\n", 0, m.start()) + 1
                   for m in re.finditer(r"^[ \t]*#\s*define\s+(" + IDENT + ")", text, re.M)}
        undefined = set(re.findall(r"^[ \t]*#\s*undef\s+(" + IDENT + ")", text, re.M))
        for name, line in defined.items():
            if name not in undefined:
                problems.append((line, f"macro {name} is not #undef'd in its file"))
    text = re.sub(r"^[ \t]*#(?:[^\n]*\\\n)*[^\n]*$", lambda m: re.sub(r"[^\n]", " ", m.group(0)), text, flags=re.M)
    # Each scope: 'ns' (a named namespace), 'anon', or 'other' (a class, a function, ...).
    stack, start, i = [], 0, 0
    while i < len(text):
        c = text[i]
        if c in "{;}":
            chunk = text[start:i]
            at_namespace = all(kind != "other" for kind, _ in stack)
            line = text.count("\n", 0, start + len(chunk) - len(chunk.lstrip())) + 1
            if c == "{":
                m = re.search(r"(?:^|[;}\s])(inline\s+)?namespace(\s+[\w:]+)?\s*$", chunk)
                if at_namespace and m and re.fullmatch(r"\s*(inline\s+)?namespace(\s+[\w:]+)?\s*", chunk):
                    stack.append(("ns", m.group(2).strip()) if m.group(2) else ("anon", ""))
                else:
                    if at_namespace:
                        record(chunk, line, stack, path, local, public, problems)
                    stack.append(("other", ""))
                    # A function body or a class: skip to its matching brace as one unit.
                    depth, j = 1, i + 1
                    while j < len(text) and depth:
                        depth += {"{": 1, "}": -1}.get(text[j], 0)
                        j += 1
                    stack.pop()
                    i = j
                    # A class or variable definition ends at its ';', not at the brace.
                    k = i
                    while k < len(text) and text[k] in " \t\n":
                        k += 1
                    if k < len(text) and text[k] == ";":
                        i = k + 1
                    start = i
                    continue
            elif c == ";":
                if at_namespace:
                    record(chunk, line, stack, path, local, public, problems)
            else:
                if stack:
                    stack.pop()
            start = i + 1
        i += 1
    return local, public, problems, text


def record(chunk, line, stack, path, local, public, problems):
    statement = chunk.strip()
    if not statement or statement.startswith("extern \"C\""):
        return
    is_cc = path.endswith(".cc")
    if re.match(r"using\s+namespace\b", statement):
        if is_cc:
            problems.append((line, "namespace-scope `using namespace` reaches the next files of a unity batch"))
        return
    found = declared(statement)
    if found is None:
        return
    name, kind, target = found
    words = statement.split("(")[0].split()
    internal = ("anon", "") in stack or "static" in words or kind == "alias" or (
        kind == "variable" and ("const" in words or "constexpr" in words) and
        "extern" not in words and "inline" not in words)
    namespace = "::".join(n for k, n in stack if k == "ns")
    entity = Entity(name, kind, namespace, line, internal, target)
    (local if is_cc else public).append(entity)


def encloses(outer, inner):
    """Is namespace `outer` strictly around `inner` ("" is the global namespace)?"""
    return inner != outer and (not outer or inner.startswith(outer + "::"))


def names(alias, entity):
    """Does a using-declaration or alias name this entity (its target, qualified as written,
    ends the entity's qualified name)?"""
    qualified = f"{entity.namespace}::{entity.name}" if entity.namespace else entity.name
    return alias.kind == "alias" and alias.target is not None and (
        qualified == alias.target or qualified.endswith("::" + alias.target))


def hides(local, other):
    """Can the file-local declaration `local` take the place of `other` in a unity batch
    without a diagnostic? Two functions in one namespace are overloads and a call may take the
    other; a name in a namespace inside the other's hides it from code there. The same alias
    twice is a legal redeclaration, an alias of the other entity is that entity, and two other
    declarations of one name in one namespace do not compile."""
    if names(local, other) or names(other, local):
        return False
    if local.kind == "alias" and other.kind == "alias" and local.target == other.target:
        return False
    if local.kind == "function" and other.kind == "function" and local.namespace == other.namespace:
        return True
    return encloses(other.namespace, local.namespace)


NOT_A_TYPE = {"return", "else", "case", "new", "delete", "throw", "goto", "sizeof", "typedef",
              "using", "namespace", "operator", "co_return", "co_yield"}


def declares(text, name, static_too=True):
    """Does `text` declare `name` anywhere (a member, a local, a parameter): a type-like word,
    then the name, then what follows a declarator? Generous on purpose: a name a file
    declares for itself is not borrowed. A header's static members (`Duration::Seconds`) are
    called qualified, so `static_too` false leaves them out."""
    if re.search(r"\b(?:using|struct|class|enum|union)\s+" + name + r"\b", text):
        return True
    for m in re.finditer(r"([\w>&*\]]+)\s+" + name + r"\s*[(=;{\[,)]", text):
        line_start = text.rfind("\n", 0, m.start()) + 1
        if m.group(1) in NOT_A_TYPE:
            continue
        if static_too or not re.search(r"\bstatic\b", text[line_start:m.start()]):
            return True
    return False


def borrowed_names(target, texts, declared_here, own, header_texts):
    """Rule 4: a file that uses a name only another file of its library declares file-locally
    compiles only in a unity build, and there silently calls the neighbour's (seen here:
    dump_policy.cc's `Seconds`, left after a rename, found check_scenario.cc's)."""
    findings = []
    all_headers = "\n".join(header_texts.values())
    for rel, text in sorted(texts.items()):
        lenders = {name: place for name, places in own.items() for place in places
                   if place[0] != rel}
        reported = set()
        for m in re.finditer(r"(?<![\w.:>])(" + IDENT + r")\b", text):
            name = m.group(1)
            own_header = header_texts.get(os.path.splitext(rel)[0] + ".h", "")
            if (name not in lenders or name in reported or name in declared_here[rel] or
                    declares(text, name) or declares(own_header, name) or
                    declares(all_headers, name, static_too=False)):
                continue
            reported.add(name)
            lender, entity = lenders[name]
            findings.append(f"{rel}:{text.count(chr(10), 0, m.start()) + 1}: {name} is declared "
                            f"only file-locally in {lender}:{entity.line} ({target})")
    return findings


def read_libraries(path, root):
    """target -> its source files (relative to root), as cmake/unity_libraries.cmake lists them."""
    libraries = {}
    for line in open(path, encoding="utf-8"):
        target, _, sources = line.rstrip("\n").partition("\t")
        # Generated sources (the build's version.cc and html_assets.cc) are the build's business;
        # a checkout checked with another tree's list may lack them.
        rels = [os.path.relpath(src, root) for src in sources.split(";")
                if src.endswith(".cc") and os.path.exists(src)]
        libraries[target] = sorted(rels)
    return libraries


def headers_under(root, dirs):
    found = []
    for d in dirs:
        for base, subdirs, names in os.walk(os.path.join(root, d)):
            subdirs[:] = sorted(x for x in subdirs if not x.startswith("."))
            found += [os.path.join(base, n) for n in sorted(names) if n.endswith(".h")]
    return found


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[1])
    parser.add_argument("--root", default=os.path.join(os.path.dirname(__file__), "..", ".."))
    parser.add_argument("--libraries", required=True,
                        help="the file cmake/unity_libraries.cmake writes: target TAB sources")
    parser.add_argument("--header-dirs", nargs="+", default=PRODUCT_DIRS,
                        help="folders (under --root) whose .h files hold the declared names")
    parser.add_argument("--list", action="store_true")
    args = parser.parse_args()
    root = os.path.abspath(args.root)
    findings, public, header_texts = [], {}, {}
    for path in headers_under(root, args.header_dirs):
        _, declared, _, text = scan(path)
        header_texts[os.path.relpath(path, root)] = text
        for entity in declared:
            public.setdefault(entity.name, []).append((os.path.relpath(path, root), entity))
    for target, sources in sorted(read_libraries(args.libraries, root).items()):
        own = {}  # name -> [(file, entity)] of this library's file-local declarations
        texts, declared_here = {}, {}
        for rel in sources:
            local, _, problems, texts[rel] = scan(os.path.join(root, rel))
            declared_here[rel] = {entity.name for entity in local}
            findings += [f"{rel}:{line}: {what}" for line, what in problems]
            for entity in local:
                implements = any(e.namespace == entity.namespace for _, e in public.get(entity.name, []))
                if entity.internal or not implements:
                    own.setdefault(entity.name, []).append((rel, entity))
        for name in sorted(own):
            places = own[name]
            if args.list:
                print(f"{target}: {name}: " + ", ".join(f"{r}:{e.line}" for r, e in places))
            for i, (rel, entity) in enumerate(places):
                for other_rel, other in places[:i]:
                    if other_rel != rel and (hides(entity, other) or hides(other, entity)):
                        findings.append(f"{rel}:{entity.line}: {name} is file-local here and in "
                                        f"{other_rel}:{other.line} ({target})")
                for header, declared in public.get(name, []):
                    if entity.internal and hides(entity, declared):
                        findings.append(f"{rel}:{entity.line}: file-local {name} is also declared "
                                        f"in {header}:{declared.line}")
                        break
        findings += borrowed_names(target, texts, declared_here, own, header_texts)
    for line in findings:
        print(line)
    if findings:
        print(f"{len(findings)} finding(s): rename the file-local name after what it is "
              "(cmake/unity_libraries.cmake says why)", file=sys.stderr)
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main())
