#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The suite needs no probe: no file of userland/ outside userland/probes/
calls a function that userland/probes/ defines, but the registry's
(probes/registry.c: the suite finds probes there and runs them through the
`struct probe` table's pointers), and no two files of userland/ call each
other. The files of one probe (NAME.c, NAME_*.c and NAME_impl.h beside
it, docs/ARCHITECTURE.md) are one unit: their calls to each other are
listed as diagnostics, not failures.

It reads the C sources, not build/host's objects with nm, because the
sources are the question and the answer must not depend on a build: it
needs none (a fraction of a second), sees code this host's build leaves
out (the non-x86 branches of clocks_impl.h), and names static inline
functions and function-like macros of a header as that header's, where nm
would charge them to each file that uses them. A call is a name followed
by "(" inside a function body or an initializer, outside comments,
strings and preprocessor lines, and not a member ("x.f(", "p->f("); it
belongs to the file that defines the name as an extern function (or, in a
header, as an inline function or a macro); a name defined in more than
one file belongs to the ones the caller includes. A function pointer
stored or passed is not a call. The scanner is first checked on small
trees made here, one per rule, each with a violation it must find and
look-alikes it must not. The same holds for the files of tools/report/
(x.c with its x.h one module): they call each other in layers, no two
each other."""
import os
import re
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from tp1 import ROOT, diag, done, ok  # noqa: E402

DIRS = ("userland", "userland/probes")
REGISTRY = "userland/probes/registry"
REPORT = "tools/report"
TOKEN = re.compile(r'//[^\n]*|/\*.*?\*/|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'|->'
                   r'|[A-Za-z_]\w*|\S', re.S)
INCLUDE = re.compile(r'^[ \t]*#[ \t]*include[ \t]*"([^"]+)"', re.M)
MACRO = re.compile(r'^[ \t]*#[ \t]*define[ \t]+(\w+)\(', re.M)


def code_tokens(text):
    """The tokens of C text without comments, strings, preprocessor lines
    and __attribute__((...))."""
    code = re.sub(r'^[ \t]*#.*$', '', text, flags=re.M)
    toks = [t for t in TOKEN.findall(code) if not t.startswith(("//", "/*", '"', "'"))]
    out, i = [], 0
    while i < len(toks):
        if toks[i] != "__attribute__":
            out.append(toks[i])
            i += 1
            continue
        i, depth = i + 1, 0
        while i < len(toks):
            depth += {"(": 1, ")": -1}.get(toks[i], 0)
            i += 1
            if depth == 0:
                break
    return out


def scan(root, path):
    """What one file defines for others, defines for itself, calls, includes."""
    with open(os.path.join(root, path), encoding="utf-8", errors="replace") as f:
        text = f.read().replace("\\\n", " ")
    header = path.endswith(".h")
    here = os.path.dirname(path)
    includes = {os.path.normpath(os.path.join(here, i)) for i in INCLUDE.findall(text)}
    shared, local, calls = set(), set(), set()
    (shared if header else local).update(MACRO.findall(text))
    toks = code_tokens(text)
    depth, decl = 0, []
    for i, t in enumerate(toks):
        if t == "{":
            if depth == 0 and "(" in decl and "=" not in decl:
                name = decl[decl.index("(") - 1]
                (local if "static" in decl and not header else shared).add(name)
            depth, decl = depth + 1, []
        elif t == "}":
            depth, decl = depth - 1, []
        elif depth == 0:
            decl = [] if t == ";" else decl + [t]
        if (depth > 0 or "=" in decl) and (t[0].isalpha() or t[0] == "_") \
                and toks[i + 1:i + 2] == ["("] and toks[i - 1:i] not in (["."], ["->"]):
            calls.add(t)
    return shared, local, calls, includes


def module(path):
    """x.c and x.h are one module."""
    return path.rsplit(".", 1)[0]


def unit(mod, probes):
    """A probe's NAME_*.c and NAME_impl.h belong to NAME."""
    d, name = mod.rsplit("/", 1)
    if d == "userland/probes":
        for p in probes:
            if name.startswith(p + "_"):
                return d + "/" + p
    return mod


def graph(root, dirs=DIRS):
    """{(caller file, defining file): names called} among the files of dirs."""
    files = [d + "/" + f for d in dirs for f in sorted(os.listdir(os.path.join(root, d)))
             if f.endswith((".c", ".h"))]
    info = {f: scan(root, f) for f in files}
    owners = {}
    for f, (shared, _, _, _) in info.items():
        for name in shared:
            owners.setdefault(name, set()).add(f)

    def seen_from(f, acc):
        for i in info.get(f, (0, 0, 0, ()))[3]:
            if i not in acc:
                acc.add(i)
                seen_from(i, acc)
        return acc

    edges = {}
    for f, (shared, local, calls, _) in info.items():
        for name in calls - local - shared:
            cands = {o for o in owners.get(name, ()) if module(o) != module(f)}
            if len(cands) > 1:
                cands &= seen_from(f, set())
            for o in cands:
                edges.setdefault((f, o), set()).add(name)
    return edges


def cycles_of(pairs):
    """The two-unit cycles of {(caller unit, called unit): names}, one line each."""
    return ["%s and %s call each other: %s / %s" % (
        ua, ub, ", ".join(sorted(names)), ", ".join(sorted(pairs[(ub, ua)])))
        for (ua, ub), names in sorted(pairs.items()) if ua < ub and (ub, ua) in pairs]


def report_cycles(root):
    """Two modules of tools/report (x.c with x.h) that call each other."""
    pairs = {}
    for (a, b), names in graph(root, (REPORT,)).items():
        pairs.setdefault((module(a), module(b)), set()).update(names)
    return cycles_of(pairs)


def check(root):
    """(suite calls into probes/, two-unit cycles, cycles inside one probe)."""
    edges = graph(root)
    probes = {f[:-2] for f in os.listdir(os.path.join(root, "userland/probes")) if f.endswith(".c")}
    into, pairs = [], {}
    for (a, b), names in sorted(edges.items()):
        if not a.startswith("userland/probes/") and b.startswith("userland/probes/") \
                and module(b) != REGISTRY:
            into.append("%s calls %s of %s" % (a, ", ".join(sorted(names)), b))
        ua, ub = unit(module(a), probes), unit(module(b), probes)
        pairs.setdefault((ua, ub), set()).update("%s (%s)" % (n, b) for n in names)
    cycles, inner = cycles_of(pairs), []
    mods = {(module(a), module(b)) for (a, b) in edges}
    for (a, b) in sorted(mods):
        if a < b and (b, a) in mods and unit(a, probes) == unit(b, probes):
            inner.append("%s <-> %s" % (a, b))
    registry = any(module(b) == REGISTRY and not a.startswith("userland/probes/")
                   for (a, b) in edges)
    return into, cycles, inner, registry


def tree(files):
    """A small userland/ and tools/report/ in a new folder: {path: text}."""
    root = tempfile.mkdtemp(prefix="tp-cycles.")
    for d in DIRS + (REPORT,):
        os.makedirs(os.path.join(root, d))
    for path, text in files.items():
        with open(os.path.join(root, path), "w") as f:
            f.write(text)
    return root


PROBE_P = {
    "userland/probes/p.h": "int p_count(void);\n#define P_TWICE(x) p_count()\n",
    "userland/probes/p.c": '#include "p.h"\nint p_count(void)\n{\n\treturn 1;\n}\n',
    "userland/probes/registry.c": "const void *probe_find(const char *n)\n{\n\treturn 0;\n}\n",
}
LOOKALIKES = {
    # a comment, a string, a member, a prototype and a static twin of p_count: no calls
    "userland/a.h": "int p_count(void);\n",
    "userland/a.c": '#include "a.h"\n/* p_count() */\nstatic int p_count(void)\n{\n\treturn 0;\n}\n'
                    'int a(struct s *s)\n{\n\tputs("p_count()");\n\treturn s->p_count() + '
                    's.p_count() + p_count() + probe_find("x") != 0;\n}\n',
}


def self_test():
    into, cycles, _, _ = check(tree(dict(PROBE_P, **{
        "userland/a.c": '#include "probes/p.h"\nint a(void)\n{\n\treturn p_count();\n}\n'})))
    ok(len(into) == 1 and "p_count" in into[0], "a suite file calling a probe's function is found", into)
    into, _, _, _ = check(tree(dict(PROBE_P, **{
        "userland/a.c": '#include "probes/p.h"\nint a(void)\n{\n\treturn P_TWICE(1);\n}\n'})))
    ok(len(into) == 1 and "P_TWICE" in into[0], "a call through a probe header's macro is found", into)
    into, cycles, _, registry = check(tree(dict(PROBE_P, **LOOKALIKES)))
    ok(not into and not cycles and registry,
       "comments, strings, members, prototypes and a static twin are no calls; the registry's are allowed",
       into + cycles)
    _, cycles, _, _ = check(tree({
        "userland/a.c": "int b(void);\nint a(void)\n{\n\treturn b();\n}\n",
        "userland/b.c": "int a(void);\nint b(void)\n{\n\treturn 0;\n}\nint c(void)\n{\n\treturn a();\n}\n"}))
    ok(len(cycles) == 1 and "userland/a and userland/b" in cycles[0], "two suite files calling each other are a cycle",
       cycles)
    _, cycles, inner, _ = check(tree({
        "userland/probes/q.c": "int q_x(void);\nint q(void)\n{\n\treturn q_x();\n}\n",
        "userland/probes/q_x.c": "int q(void);\nint q_x(void)\n{\n\treturn q();\n}\n"}))
    ok(not cycles and len(inner) == 1, "one probe's files calling each other are no cycle", cycles)
    cells = "void fmt_cell(void)\n{\n}\n"
    cycles = report_cycles(tree({
        "tools/report/cells.c": cells,
        "tools/report/lead.c": "void lead(void)\n{\n\tfmt_cell();\n}\n",
        "tools/report/format.c": "void format(void)\n{\n\tlead();\n\tfmt_cell();\n}\n"}))
    ok(not cycles, "report files called in layers are no cycle", cycles)
    cycles = report_cycles(tree({
        "tools/report/cells.c": cells,
        "tools/report/lead.c": "void lead(void)\n{\n\tformat();\n}\n",
        "tools/report/format.c": "void format(void)\n{\n\tlead();\n\tfmt_cell();\n}\n"}))
    ok(len(cycles) == 1 and "tools/report/format and tools/report/lead" in cycles[0],
       "two report files calling each other are a cycle", cycles)


self_test()
into, cycles, inner, registry = check(ROOT)
ok(registry, "the scanner sees the suite's calls into the registry (it reads the real tree)")
ok(not into, "no suite file calls a function of userland/probes/ but the registry's", "\n".join(into))
ok(not cycles, "no two files of userland/ call each other", "\n".join(cycles))
ok(not report_cycles(ROOT), "no two files of tools/report call each other",
   "\n".join(report_cycles(ROOT)))
for line in inner:
    diag("one probe's files, calling each other: " + line)
done()
