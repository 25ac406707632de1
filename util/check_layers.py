#!/usr/bin/env python3
"""Module layering of the BSP, the firmware and hostlink (docs/bsp.md,
docs/firmware.md, docs/hostlink.md, "Layers"); run by `make lint`.

A module is a file stem: uart.c, uart.h and uart.S are module "uart". Two
naming rules put a file into another module: X_offsets.c (the generator of
the assembly header X_offsets.h, built into build/) belongs to module X, and
so does its generated header; ALIASES names the others. A module uses module
M when one of its files has `#include "..."` of a file of M in the same tree;
includes of files outside the tree (generated registers and configuration,
the C library, other trees) do not count.

So that the includes show every call between modules, a header declares only
its own module's functions and variables: each one a header declares is
defined in the header's module (a weak default elsewhere is allowed, and the
HOOKS a program supplies are exempt), and no source file declares a function
or variable of another module itself.

Each tree lists its modules in layers, lowest first. The check fails when
  - a module includes a module of its own or a higher layer (a cycle needs
    one such include, so there is none: the dependency graph is a layering),
  - a file belongs to no listed module (a new file must get a layer),
  - a header declares a function or variable another module defines, or a
    source file declares one of another module's itself,
  - the include graph has a cycle (reported with its path; implied by the
    first rule, checked on its own so the message names the circle).

  python3 util/check_layers.py          # all trees; exit 1 on a violation
  python3 util/check_layers.py -v       # also print each tree's edges
  python3 util/check_layers.py --self-test   # the check on made-up broken trees
"""
import os
import re
import sys

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))

# tree: (folders of its sources and headers, layers lowest first)
TREES = {
    "bsp": (
        ["bsp/src", "bsp/include/tessera"],
        [
            ["csr", "mmio", "hostif", "image", "cp_pkt", "roce", "spiflash", "serframe"],  # register access, CSRs, shared formats
            ["crt0", "sysctrl", "trap", "trap_entry"],
            ["timer", "uart"],                        # uart: polled output, bit time
            ["intc"],                                 # its unhandled-source report uses uart
            ["uart_rx"],                              # the RX interrupt uses intc
            ["stdio", "test"],
            ["trap_default"],                         # default trap_unexpected (trap.h hook)
            ["tessera"],                              # umbrella header, for programs only
        ],
    ),
    "firmware": (
        ["firmware"],
        [
            ["fw"],                                   # constants
            ["events", "cp_state"],                   # event word; the scheduler's shared state
            ["pktcheck", "nic"],                      # packet check of command buffers; NIC requests
            ["cp_fast"],                              # doorbell fast path (assembly)
            ["cp"],                                   # scheduler, engine driver, hooks
            ["console"],                              # UART console, serial frames
            ["sched"],                                # tick, doorbell, scheduler loop
            ["main"],
        ],
    ),
    "hostlink": (
        ["hostlink/src", "hostlink/include"],
        [
            ["hl_core"],                              # device handle, ops table, access, jobs
            ["hl_cb", "hl_flash", "hl_nic", "hl_serial", "hl_sock"],  # command buffers, SPI flash, NIC; transports
            ["hl_sim"],                               # the simulator, also through its UART (serial)
            ["hl_open"],                              # open a device by name: every transport
            ["hostlink"],                             # umbrella header, for programs only
        ],
    ),
}

# files of one module under another stem
ALIASES = {"trap_entry": "trap"}   # the trap entry in assembly and its C side
# functions declared in a module's header that a program defines (the module
# calls them): not required to be defined in the declaring module
HOOKS = {"trap_unexpected"}

SRC_EXT = (".c", ".h", ".S")
INC_RE = re.compile(r'^\s*#\s*include\s+"([^"]+)"')


def module_of(name):
    stem = os.path.splitext(os.path.basename(name))[0]
    if stem.endswith("_offsets"):
        stem = stem[: -len("_offsets")]
    return ALIASES.get(stem, stem)


DECL_RE = re.compile(r"^(?:extern\s+)?[A-Za-z_][\w\s\*]*?\b([A-Za-z_]\w*)\s*\([^;{]*\)\s*(?:__attribute__\s*\(\(.*\)\))?\s*;")
VAR_RE = re.compile(r"^extern\s+[^;(]*?\b([A-Za-z_]\w*)\s*(?:\[[^\]]*\])?\s*;")
DEF_RE = re.compile(r"^(?!static\b)(?:__attribute__\s*\(\([^)]*\)\)\s*)*[A-Za-z_][\w\s\*]*?\b([A-Za-z_]\w*)\s*\([^;]*\)\s*(?:\{.*)?$")
VDEF_RE = re.compile(r"^(?!static\b|extern\b|typedef\b|return\b)(?:volatile\s+|const\s+)*[A-Za-z_]\w*[\s\*]+(?:volatile\s+|const\s+)?\**([A-Za-z_]\w*)\s*(?:\[[^\]]*\])?\s*(?:__attribute__\s*\(\(.*\)\)\s*)?(?:=[^;]*)?;")
GLOBL_RE = re.compile(r"^\s*\.globl\s+([A-Za-z_]\w*)")


def strip_attributes(text):
    """text without its __attribute__((...)) (balanced parentheses)."""
    out, i = [], 0
    while True:
        j = text.find("__attribute__", i)
        if j < 0:
            return "".join(out) + text[i:]
        out.append(text[i:j])
        k = text.find("(", j)
        depth = 0
        while k < len(text):
            depth += {"(": 1, ")": -1}.get(text[k], 0)
            k += 1
            if depth == 0:
                break
        out.append(" __weak__ " if "weak" in text[j:k] else " ")
        i = k


def top_level_lines(path):
    """Lines at brace depth 0 outside comments (declarations and definitions)."""
    text = open(path, encoding="utf-8").read()
    text = re.sub(r"/\*.*?\*/", lambda m: "\n" * m.group(0).count("\n"), text, flags=re.S)
    text = re.sub(r"//[^\n]*", "", text)
    text = re.sub(r'extern\s+"C"\s*\{', "", text)
    text = re.sub(r"#ifdef\s+__cplusplus\s*\n\s*\}", "#ifdef __cplusplus", text)
    text = strip_attributes(text)
    out, depth, paren = [], 0, 0
    for line in text.split("\n"):
        if depth == 0 and not line.startswith("#"):
            out.append(line)
        depth += line.count("{") - line.count("}")
    # join continuation lines of a declaration (until ';' or '{')
    joined, cur = [], ""
    for line in out:
        if not line.strip():
            if cur:
                joined.append(cur)
                cur = ""
            continue
        cur = (cur + " " + line.strip()) if cur else line.strip()
        if cur.count("(") == cur.count(")") and (cur.endswith(";") or cur.endswith("{") or "{" in cur
                                                  or cur.endswith(")")):
            joined.append(cur)
            cur = ""
    if cur:
        joined.append(cur)
    return joined


def symbols(path):
    """(declared, defined, weak) names of a file's top level."""
    decl, defs, weak = set(), set(), set()
    if path.endswith(".S"):
        for line in open(path, encoding="utf-8"):
            m = GLOBL_RE.match(line)
            if m:
                defs.add(m.group(1))
        return decl, defs, weak
    lines = top_level_lines(path)
    for i, line in enumerate(lines):
        if line.startswith("typedef") or line.startswith("static"):
            continue
        line = line.replace("__weak__", "").strip() if "__weak__" in line else line
        is_weak = line != lines[i]
        m = DECL_RE.match(line)
        if m:
            decl.add(m.group(1))
            continue
        m = VAR_RE.match(line)
        if m:
            decl.add(m.group(1))
            continue
        m = DEF_RE.match(line)
        if m and path.endswith(".c"):
            nxt = lines[i + 1] if i + 1 < len(lines) else ""
            if "{" in line or nxt.startswith("{"):
                defs.add(m.group(1))
                if is_weak:
                    weak.add(m.group(1))
            continue
        m = VDEF_RE.match(line)
        if m and path.endswith(".c"):
            defs.add(m.group(1))
    return decl, defs, weak


def check_tree(tree, folders, layers, verbose, root=ROOT):
    errors = []
    layer = {}
    for i, mods in enumerate(layers):
        for m in mods:
            layer[m] = i
    files = []
    for d in folders:
        for f in sorted(os.listdir(os.path.join(root, d))):
            if f.endswith(SRC_EXT):
                files.append(os.path.join(d, f))
    # an include resolves inside the tree by its path relative to a folder or
    # the include root of the headers (tessera/uart.h), or a generated header
    # X_offsets.h from X_offsets.c
    known = {}
    for f in files:
        known[os.path.basename(f)] = f
        known[os.path.relpath(os.path.join(root, f), os.path.join(root, os.path.dirname(os.path.dirname(f))))] = f
        if f.endswith("_offsets.c"):
            known[os.path.basename(f)[:-2] + ".h"] = f
    edges = {}
    for f in files:
        m = module_of(f)
        if m not in layer:
            errors.append(f"{tree}: {f}: module '{m}' has no layer (add it to util/check_layers.py and the docs)")
            continue
        with open(os.path.join(root, f), encoding="utf-8") as fh:
            for n, line in enumerate(fh, 1):
                mt = INC_RE.match(line)
                if not mt:
                    continue
                inc = mt.group(1)
                tgt = known.get(inc)
                if tgt is None and "/" not in inc:
                    tgt = None
                if tgt is None:
                    continue   # outside the tree (registers, configuration, other trees)
                dm = module_of(tgt)
                if dm == m:
                    continue
                edges.setdefault(m, {}).setdefault(dm, f"{f}:{n}")
                if dm in layer and layer[dm] >= layer[m]:
                    errors.append(f"{tree}: {f}:{n}: '{m}' (layer {layer[m]}) includes \"{inc}\" of '{dm}' "
                                  f"(layer {layer[dm]}): a module may use only lower layers")
    # declarations: a header declares its own module's symbols only, and a
    # source file does not declare another module's symbol itself
    owner, weak_of, declared = {}, {}, []
    for f in files:
        decl, defs, weak = symbols(os.path.join(root, f))
        for d in defs:
            if d in weak:
                weak_of.setdefault(d, set()).add(module_of(f))
            else:
                owner.setdefault(d, set()).add(module_of(f))
        declared += [(f, d) for d in decl]
    for f, d in declared:
        m = module_of(f)
        homes = owner.get(d, set())
        if d in HOOKS or not homes or m in homes:
            continue   # a hook, defined outside the tree, or its own
        kind = "header" if f.endswith(".h") else "source file"
        errors.append(f"{tree}: {f}: {kind} of '{m}' declares '{d}', defined in "
                      f"'{', '.join(sorted(homes))}' (declare it in that module's header)")
    # cycles (depth-first search; one path per circle found)
    state, stack, seen_cycles = {}, [], set()

    def dfs(u):
        state[u] = 1
        stack.append(u)
        for v in sorted(edges.get(u, {})):
            if state.get(v) == 1:
                cyc = stack[stack.index(v):] + [v]
                key = frozenset(cyc)
                if key not in seen_cycles:
                    seen_cycles.add(key)
                    where = ", ".join(edges[a][b] for a, b in zip(cyc, cyc[1:]))
                    errors.append(f"{tree}: include cycle {' -> '.join(cyc)} ({where})")
            elif state.get(v) is None:
                dfs(v)
        stack.pop()
        state[u] = 2

    for u in sorted(edges):
        if state.get(u) is None:
            dfs(u)
    if verbose:
        for u in sorted(edges, key=lambda x: (layer.get(x, -1), x)):
            print(f"{tree}: {u} -> {', '.join(sorted(edges[u]))}")
    return errors, len(files), len({module_of(f) for f in files})


def self_test():
    """The check on small made-up trees: each broken one must fail with its message."""
    import tempfile
    layers = [["low"], ["mid"], ["top"]]
    cases = {
        "clean": ({"low.h": "int low_f(void);\n", "low.c": '#include "low.h"\nint low_f(void) { return 0; }\n',
                   "mid.h": "void mid_f(void);\n",
                   "mid.c": '#include "low.h"\n#include "mid.h"\nvoid mid_f(void)\n{\n    low_f();\n}\n',
                   "top.c": '#include "mid.h"\nint main(void) { mid_f(); return 0; }\n'}, None),
        "cycle": ({"low.h": "int low_f(void);\n", "low.c": '#include "low.h"\n#include "mid.h"\nint low_f(void) { mid_f(); return 0; }\n',
                   "mid.h": "void mid_f(void);\n", "mid.c": '#include "low.h"\n#include "mid.h"\nvoid mid_f(void) { low_f(); }\n'},
                  "include cycle"),
        "upward": ({"low.c": '#include "top.h"\n', "top.h": "void top_f(void);\n"}, "a module may use only lower layers"),
        "foreign declaration": ({"low.h": "void mid_f(void);\n", "mid.c": "void mid_f(void) { }\n"}, "declares 'mid_f'"),
        "local declaration": ({"top.c": "void mid_f(void);\nint main(void) { mid_f(); return 0; }\n",
                               "mid.c": "void mid_f(void) { }\n"}, "declares 'mid_f'"),
        "unknown module": ({"other.c": "int x;\n"}, "has no layer"),
    }
    bad = 0
    for name, (files, want) in cases.items():
        with tempfile.TemporaryDirectory() as d:
            os.makedirs(os.path.join(d, "t"))
            for f, text in files.items():
                with open(os.path.join(d, "t", f), "w", encoding="utf-8") as fh:
                    fh.write(text)
            errors, _, _ = check_tree("selftest", ["t"], layers, False, root=d)
        ok = (not errors) if want is None else any(want in e for e in errors)
        print(f"layers self-test {name}: {'ok' if ok else 'FAILED'}" + ("" if ok else f" {errors}"))
        bad += not ok
    print(f"{len(cases) - bad} passed, {bad} failed")
    return 1 if bad else 0


def main():
    if "--self-test" in sys.argv[1:]:
        return self_test()
    verbose = "-v" in sys.argv[1:]
    errors = []
    for tree, (folders, layers) in TREES.items():
        e, nfiles, nmods = check_tree(tree, folders, layers, verbose)
        errors += e
        if not e:
            print(f"layers: {tree} clean ({nfiles} files, {nmods} modules, {len(layers)} layers)")
    for e in errors:
        print("layers: " + e)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
