#!/usr/bin/env python3
"""Import loops between the files of each crate, and the server's domain boundary.

    scripts/import-loops.py [--graph CRATE]

For every crate under crates/ (and fuzz/ if present) it builds the graph "file A uses an
item defined in file B" and reports every strongly connected group of two or more files
(a loop: each file of the group reaches every other through imports). An item counts
where it is *defined*: a `pub use` that re-exports it is followed to the file that holds
it. What counts as a use:

- a `use` declaration (`use crate::a::B`, `use super::b::{C, D as E}`, `use self::c::F`);
- a path in the code (`crate::a::B::new()`, `super::helper(x)`);
- a glob (`use super::*`, `use crate::a::*`): counted by the names the file actually
  uses, each followed to the file that defines it, so that a glob of a parent module ties
  the child only to the parent's items it names.

A `mod x;` declaration is not a use (a parent holds its children), nor is a method call
(`impl Hub` in a child file uses `Hub`, and the parent calling that method does not use
the child). Inline `#[cfg(test)] mod tests { use super::*; }` belongs to its file.

It also checks that no file of crates/server/src/domain uses axum, a database crate or
`crate::api` (the domain imports nothing of the layers above or below it).

Exits 1 with the loops listed when there is one; `--graph CRATE` prints a crate's edges.
"""

import os
import re
import sys

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
DEF_RE = re.compile(
    r"^\s*(?:pub(?:\([^)]*\))?\s+)?(?:default\s+)?(?:async\s+)?(?:const\s+)?(?:unsafe\s+)?"
    r"(?:extern\s+\"[^\"]*\"\s+)?"
    r"(fn|struct|enum|trait|type|const|static|union|mod)\s+(?:mut\s+)?([A-Za-z_][A-Za-z0-9_]*)",
    re.M,
)
MACRO_RE = re.compile(r"^\s*macro_rules!\s*([A-Za-z_][A-Za-z0-9_]*)", re.M)
WORD_RE = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
PATH_RE = re.compile(r"\b((?:crate|super|self)(?:\s*::\s*[A-Za-z_][A-Za-z0-9_]*)+)")
DOMAIN_FORBIDDEN = re.compile(r"\b(axum|sqlx|rusqlite|tokio_postgres|crate\s*::\s*api)\b")


def strip(src):
    """The source without comments, strings and char literals (kept the same length)."""
    out = []
    i, n = 0, len(src)
    while i < n:
        c = src[i]
        if src.startswith("//", i):
            j = src.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i))
            i = j
        elif src.startswith("/*", i):
            depth, j = 1, i + 2
            while j < n and depth:
                if src.startswith("/*", j):
                    depth, j = depth + 1, j + 2
                elif src.startswith("*/", j):
                    depth, j = depth - 1, j + 2
                else:
                    j += 1
            out.append(re.sub(r"[^\n]", " ", src[i:j]))
            i = j
        elif c == "r" and re.match(r'r#*"', src[i:i + 10]) and (i == 0 or not (src[i - 1].isalnum() or src[i - 1] == "_")):
            m = re.match(r'r(#*)"', src[i:])
            end = '"' + m.group(1)
            j = src.find(end, i + len(m.group(0)))
            j = n if j < 0 else j + len(end)
            out.append(re.sub(r"[^\n]", " ", src[i:j]))
            i = j
        elif c == '"':
            j = i + 1
            while j < n and src[j] != '"':
                j += 2 if src[j] == "\\" else 1
            j += 1
            out.append(re.sub(r"[^\n]", " ", src[i:j]))
            i = j
        elif c == "'":
            m = re.match(r"'(\\.|\\u\{[0-9a-fA-F]+\}|\\x[0-9a-fA-F]{2}|[^\\'])'", src[i:])
            if m:
                out.append(" " * len(m.group(0)))
                i += len(m.group(0))
            else:  # a lifetime
                out.append(c)
                i += 1
        else:
            out.append(c)
            i += 1
    return "".join(out)


def split_top(s, sep=","):
    parts, depth, cur = [], 0, []
    for ch in s:
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
        if ch == sep and depth == 0:
            parts.append("".join(cur))
            cur = []
        else:
            cur.append(ch)
    parts.append("".join(cur))
    return [p.strip() for p in parts if p.strip()]


def expand_use(tree, prefix=()):
    """`a::{b, c::{d, e as f}, g::*}` -> [(path tuple, alias or '*')]."""
    tree = re.sub(r"\s+", "", tree)
    if "{" in tree and tree.endswith("}"):
        head, _, body = tree.partition("{")
        head = tuple(x for x in head.split("::") if x)
        out = []
        for part in split_top(body[:-1]):
            out += expand_use(part, prefix + head)
        return out
    alias = None
    if " as " in tree or "as" in tree.split("::")[-1]:
        m = re.match(r"(.*?)as([A-Za-z_][A-Za-z0-9_]*)$", tree)
        if m and not m.group(1).endswith("::"):
            tree, alias = m.group(1), m.group(2)
    path = prefix + tuple(x for x in tree.split("::") if x)
    if path and path[-1] == "self":
        path = path[:-1]
    if not path:
        return []
    if path[-1] == "*":
        return [(path[:-1], "*")]
    return [(path, alias or path[-1])]


class Module:
    def __init__(self, path, file):
        self.path = path  # tuple of names from the crate root
        self.file = file  # the file that holds it (an inline module: its file)
        self.children = {}
        self.defs = set()
        self.uses = []  # (path, alias): alias '*' for a glob
        self.code = ""  # this module's own text (children's inline text left out)
        self.inline = False


def inline_modules(code):
    """Spans of `mod name { ... }` blocks in stripped code: (name, start, body_start, end)."""
    out = []
    for m in re.finditer(r"\bmod\s+([A-Za-z_][A-Za-z0-9_]*)\s*\{", code):
        depth, j = 1, m.end()
        while j < len(code) and depth:
            if code[j] == "{":
                depth += 1
            elif code[j] == "}":
                depth -= 1
            j += 1
        out.append((m.group(1), m.start(), m.end(), j))
    # only the outermost ones
    top, last_end = [], -1
    for span in out:
        if span[1] >= last_end:
            top.append(span)
            last_end = span[3]
    return top


def load_module(crate, mod, code, modules):
    modules[mod.path] = mod
    spans = inline_modules(code)
    own, pos = [], 0
    for name, start, body_start, end in spans:
        own.append(code[pos:start])
        child = Module(mod.path + (name,), mod.file)
        child.inline = True
        mod.children[name] = child
        mod.defs.add(name)
        load_module(crate, child, code[body_start:end - 1], modules)
        pos = end
    own.append(code[pos:])
    text = "".join(own)
    mod.code = text
    for kind, name in DEF_RE.findall(text):
        mod.defs.add(name)
        if kind == "mod" and name not in mod.children:
            child_file = find_child_file(mod, name)
            if child_file:
                child = Module(mod.path + (name,), child_file)
                mod.children[name] = child
                load_module(crate, child, strip(open(child_file, encoding="utf-8").read()), modules)
    for name in MACRO_RE.findall(text):
        mod.defs.add(name)
    for m in re.finditer(r"\buse\s+([^;]*);", text):
        for path, alias in expand_use(m.group(1)):
            mod.uses.append((path, alias))


def find_child_file(mod, name):
    base = os.path.dirname(mod.file)
    stem = os.path.basename(mod.file)[:-3]
    # a #[path = "..."] attribute right before the declaration
    if stem in ("lib", "main", "mod") or mod.inline:
        folder = base
    else:
        folder = os.path.join(base, stem)
    for cand in (os.path.join(folder, name + ".rs"), os.path.join(folder, name, "mod.rs")):
        if os.path.exists(cand):
            return cand
    return None


class Crate:
    def __init__(self, root_file):
        self.modules = {}
        root = Module((), root_file)
        load_module(self, root, strip(open(root_file, encoding="utf-8").read()), self.modules)

    def start(self, mod, first):
        """The module a path's first segment names, seen from `mod`."""
        if first == "crate":
            return self.modules[()]
        if first == "self":
            return mod
        if first == "super":
            return self.modules.get(mod.path[:-1], self.modules[()])
        return None

    def resolve(self, mod, path, seen=None):
        """The file defining the item `path` names from `mod` (None when outside the crate)."""
        seen = seen or set()
        key = (mod.path, path)
        if key in seen or not path:
            return None
        seen.add(key)
        cur = mod
        segs = list(path)
        if segs[0] in ("crate", "self", "super"):
            cur = self.start(mod, segs.pop(0))
            while segs and segs[0] == "super":
                segs.pop(0)
                cur = self.modules.get(cur.path[:-1], self.modules[()])
            if not segs:
                return cur.file
        else:
            # a name in scope here: a child module, an item or an import
            hit = self.lookup(cur, segs[0], seen)
            if hit is None:
                return None
            kind, val = hit
            if kind == "file":
                return val
            cur = val
            segs.pop(0)
            if not segs:
                return cur.file
        while segs:
            name = segs.pop(0)
            hit = self.lookup(cur, name, seen)
            if hit is None:
                return None
            kind, val = hit
            if kind == "file":
                return val  # an item (a type's associated item follows: same file)
            cur = val
        return cur.file

    def lookup(self, mod, name, seen):
        """What `name` is in `mod`: ('mod', Module) or ('file', defining file)."""
        key = (mod.path, ("*", name))
        if key in seen:
            return None
        seen = seen | {key}
        if name in mod.children:
            return ("mod", mod.children[name])
        for path, alias in mod.uses:
            if alias == name:
                target = self.resolve_module(mod, path, seen)
                if target is not None:
                    return ("mod", target)
                f = self.resolve(mod, path, seen)
                return ("file", f) if f else None
        if name in mod.defs:
            return ("file", mod.file)
        for path, alias in mod.uses:
            if alias == "*":
                target = self.resolve_module(mod, path, seen)
                if target is not None and target is not mod:
                    hit = self.lookup(target, name, seen)
                    if hit:
                        return hit
        return None

    def resolve_module(self, mod, path, seen):
        cur = mod
        segs = list(path)
        if not segs:
            return None
        if segs[0] in ("crate", "self", "super"):
            cur = self.start(mod, segs.pop(0))
            while segs and segs[0] == "super":
                segs.pop(0)
                cur = self.modules.get(cur.path[:-1], self.modules[()])
        for name in segs:
            if name in cur.children:
                cur = cur.children[name]
                continue
            found = None
            for p, alias in cur.uses:
                if alias == name and (cur.path, p) not in seen:
                    found = self.resolve_module(cur, p, seen | {(cur.path, p)})
                    break
            if found is None:
                return None
            cur = found
        return cur

    def edges(self):
        out = {}
        for mod in self.modules.values():
            src = mod.file
            targets = out.setdefault(src, {})

            def add(f, why):
                if f and f != src:
                    targets.setdefault(f, why)

            # The names the file's own code uses: a `use` (a `pub use` re-export above all)
            # counts only for the names the rest of the file uses.
            words = set(WORD_RE.findall(re.sub(r"\buse\s+[^;]*;", " ", mod.code)))
            for path, alias in mod.uses:
                if alias == "*":
                    target = self.resolve_module(mod, path, set())
                    if target is None or target.file == src:
                        continue
                    for w in words:
                        hit = self.lookup(target, w, set())
                        if hit:
                            add(hit[1] if hit[0] == "file" else None, "::".join(path) + "::* (" + w + ")")
                elif alias in words and (path[0] in ("crate", "self", "super") or path[0] in mod.children):
                    add(self.resolve(mod, path), "::".join(path))
            for m in PATH_RE.finditer(re.sub(r"\buse\s+[^;]*;", " ", mod.code)):
                segs = tuple(s.strip() for s in m.group(1).split("::"))
                add(self.resolve(mod, segs), "::".join(segs))
        return out


def sccs(graph):
    index, low, stack, on, out, counter = {}, {}, [], set(), [], [0]
    sys.setrecursionlimit(10000)

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in graph.get(v, {}):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in list(graph):
        if v not in index:
            visit(v)
    return out


def crate_roots():
    roots = []
    for base in ("crates", "fuzz"):
        d = os.path.join(ROOT, base)
        if not os.path.isdir(d):
            continue
        cands = [d] if os.path.exists(os.path.join(d, "Cargo.toml")) else [os.path.join(d, x) for x in sorted(os.listdir(d))]
        for c in cands:
            for f in ("src/lib.rs", "src/main.rs"):
                p = os.path.join(c, f)
                if os.path.exists(p):
                    roots.append(p)
            bins = os.path.join(c, "src", "bin")
            if os.path.isdir(bins):
                roots += [os.path.join(bins, x) for x in sorted(os.listdir(bins)) if x.endswith(".rs")]
    return roots


def rel(p):
    return os.path.relpath(p, ROOT)


def main():
    graph_for = sys.argv[sys.argv.index("--graph") + 1] if "--graph" in sys.argv else None
    failed = False
    for root in crate_roots():
        crate = Crate(root)
        graph = crate.edges()
        if graph_for and graph_for in root:
            for a, ts in sorted(graph.items()):
                for b, why in sorted(ts.items()):
                    print(f"{rel(a)} -> {rel(b)}   ({why})")
        for comp in sccs(graph):
            failed = True
            print(f"import loop in {rel(os.path.dirname(os.path.dirname(root)))}: {len(comp)} files")
            members = set(comp)
            for a in comp:
                for b, why in sorted(graph[a].items()):
                    if b in members:
                        print(f"  {rel(a)} -> {rel(b)}   (uses {why})")
    domain = os.path.join(ROOT, "crates", "server", "src", "domain")
    if os.path.isdir(domain):
        for dirpath, _, files in os.walk(domain):
            for f in files:
                if f.endswith(".rs"):
                    p = os.path.join(dirpath, f)
                    code = strip(open(p, encoding="utf-8").read())
                    for m in DOMAIN_FORBIDDEN.finditer(code):
                        failed = True
                        line = code.count("\n", 0, m.start()) + 1
                        print(f"{rel(p)}:{line}: the domain uses `{m.group(1)}` (it may use neither axum, a database crate nor crate::api)")
    if failed:
        sys.exit(1)
    print("no import loops")


if __name__ == "__main__":
    main()
