"""The module graph of a Rust crate's source folder, from its `crate::` paths, and its cycles.

A module is a file or folder directly under SRC (depth 1) or one level further (depth 2);
`mod.rs`, `lib.rs` and `main.rs` stand for their folder. An edge A -> B is a `crate::B...`
path in A's code, outside comments and `#[cfg(test)]` parts (unit tests are not the module's
dependencies). A parent and its own child (`variants` and `variants::file`) are not counted
as a cycle: a folder's `mod.rs` declares its children.

Usage: import_cycles.py SRC [DEPTH]    exit status 1 and the cycles on stdout when there are
some; 0 and "no cycles" otherwise.
"""
import os
import re
import sys

PATH = re.compile(r"crate::((?:\w+::)*\w+)")
GROUP = re.compile(r"crate::(\w+)::\{([^}]*)\}")


def modules(src, depth):
    """{module: set of crate paths it names}."""
    found = {}
    for root, _, files in os.walk(src):
        for f in sorted(files):
            if not f.endswith(".rs"):
                continue
            parts = os.path.relpath(os.path.join(root, f), src)[:-3].split(os.sep)
            if parts[-1] in ("mod", "lib", "main"):
                parts = parts[:-1]
            name = "::".join(parts[:depth]) or "crate"
            with open(os.path.join(root, f), encoding="utf-8") as fh:
                text = fh.read().split("#[cfg(test)]")[0]
            text = "\n".join(l for l in text.splitlines() if not l.strip().startswith("//"))
            paths = found.setdefault(name, set())
            paths.update(m.group(1) for m in PATH.finditer(text))
            for m in GROUP.finditer(text):
                paths.update(f"{m.group(1)}::{item}" for item in re.findall(r"\b(\w+)", m.group(2)))
    return found


def graph(found):
    def resolve(path):
        parts = path.split("::")
        for k in range(len(parts), 0, -1):
            if "::".join(parts[:k]) in found:
                return "::".join(parts[:k])
        return None

    def related(a, b):
        return a.startswith(b + "::") or b.startswith(a + "::")

    return {
        m: sorted({r for p in paths if (r := resolve(p)) and r != m and not related(r, m)})
        for m, paths in found.items()
    }


def cycles(g):
    """Strongly connected components of more than one module (Tarjan, iterative)."""
    index, low, on, stack, out = {}, {}, set(), [], []
    counter = 0
    for root in g:
        if root in index:
            continue
        work = [(root, iter(g[root]))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on.add(root)
        while work:
            v, it = work[-1]
            w = next(it, None)
            if w is None:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[v])
                if low[v] == index[v]:
                    comp = []
                    while True:
                        x = stack.pop()
                        on.discard(x)
                        comp.append(x)
                        if x == v:
                            break
                    if len(comp) > 1:
                        out.append(sorted(comp))
            elif w not in index:
                index[w] = low[w] = counter
                counter += 1
                stack.append(w)
                on.add(w)
                work.append((w, iter(g[w])))
            elif w in on:
                low[v] = min(low[v], index[w])
    return out


def main(argv):
    if len(argv) not in (2, 3) or not os.path.isdir(argv[1]):
        print("usage: import_cycles.py SRC [DEPTH]  (SRC a crate's source folder)", file=sys.stderr)
        return 1
    depth = int(argv[2]) if len(argv) == 3 and argv[2].isdigit() else 1
    g = graph(modules(argv[1], depth))
    found = cycles(g)
    print(f"{argv[1]}: {len(g)} modules, {sum(map(len, g.values()))} edges")
    for comp in found:
        print("cycle: " + ", ".join(comp))
        for a in comp:
            print(f"    {a} -> " + ", ".join(b for b in g[a] if b in comp))
    if not found:
        print("no cycles")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
