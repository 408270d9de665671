#!/usr/bin/env python3
"""Fails when modules of the core depend on each other in a cycle.

The pipeline's stages run one way (ingest -> evidence -> views -> diagnose -> report), and so
should every group of sibling modules: a cycle between two siblings means neither can be read,
tested or moved without the other. For each parent module this script builds the graph of its
children (an edge A -> B when code in A, or below it, names B through `crate::` or `super::`)
and reports every cycle. Code in `#[cfg(test)]` modules and `tests.rs` files is left out: a
test may reach anywhere.
"""
import re
import sys
from pathlib import Path

ROOT = Path(sys.argv[1] if len(sys.argv) > 1 and sys.argv[1] != "--self-test" else "crate/src")


def module_path(path: Path) -> tuple:
    rel = path.relative_to(ROOT).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] in ("mod", "lib"):
        parts.pop()
    if parts and parts[0] == "bin":
        return ("bin",) + tuple(parts[1:])
    return tuple(parts)


def strip(src: str) -> str:
    """Removes comments, string and char literals, and #[cfg(test)] items."""
    out, i, n = [], 0, len(src)
    while i < n:
        c = src[i]
        if src.startswith("//", i):
            j = src.find("\n", i)
            i = n if j < 0 else j
        elif src.startswith("/*", i):
            depth, i = 1, i + 2
            while i < n and depth:
                if src.startswith("/*", i):
                    depth, i = depth + 1, i + 2
                elif src.startswith("*/", i):
                    depth, i = depth - 1, i + 2
                else:
                    i += 1
        elif c == "r" and re.match(r'r#*"', src[i:i + 10]) and not (i and (src[i - 1].isalnum() or src[i - 1] == "_")):
            m = re.match(r'r(#*)"', src[i:])
            end = '"' + m.group(1)
            j = src.find(end, i + len(m.group(0)))
            i = n if j < 0 else j + len(end)
            out.append('""')
        elif c == '"':
            i += 1
            while i < n and src[i] != '"':
                i += 2 if src[i] == "\\" else 1
            i += 1
            out.append('""')
        elif c == "'" and re.match(r"'(\\.|[^\\'])'", src[i:i + 12]) or (c == "'" and re.match(r"'\\u\{[0-9a-fA-F]+\}'", src[i:i + 12])):
            m = re.match(r"'(\\u\{[0-9a-fA-F]+\}|\\.|[^\\'])'", src[i:])
            i += len(m.group(0))
            out.append("' '")
        else:
            out.append(c)
            i += 1
    text = "".join(out)
    # Drop `#[cfg(test)] mod name { ... }` blocks.
    while True:
        m = re.search(r"#\[cfg\(test\)\]\s*(pub(\([^)]*\))?\s+)?mod\s+\w+\s*\{", text)
        if not m:
            break
        depth, j = 1, m.end()
        while j < len(text) and depth:
            depth += {"{": 1, "}": -1}.get(text[j], 0)
            j += 1
        text = text[: m.start()] + text[j:]
    return text


def use_trees(text: str):
    """Every path a `use` declaration names, expanded (`a::{b, c::d}` gives a::b, a::c::d)."""
    for m in re.finditer(r"\buse\s+([^;]+);", text):
        yield from expand(m.group(1).replace("\n", " ").strip())


def expand(tree: str):
    tree = tree.strip()
    if not tree:
        return
    brace = tree.find("{")
    if brace < 0:
        yield re.sub(r"\s+as\s+\w+$", "", tree).strip()
        return
    prefix = tree[:brace].strip()
    inner = tree[brace + 1: tree.rfind("}")]
    depth, start = 0, 0
    for k, ch in enumerate(inner + ","):
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
        elif ch == "," and depth == 0:
            part = inner[start:k].strip()
            start = k + 1
            if part:
                for p in expand(part):
                    yield prefix + p if p != "self" else prefix.rstrip(":")


def resolve(path: str, here: tuple):
    """The absolute module path a `crate::`/`super::`/`self::` path names, else None."""
    segs = [s.strip() for s in path.split("::")]
    if segs[0] == "crate":
        return tuple(segs[1:])
    if segs[0] in ("super", "self"):
        base = list(here)
        while segs and segs[0] in ("super", "self"):
            if segs.pop(0) == "super":
                base.pop()
        return tuple(base + segs)
    return None


def main() -> int:
    files = sorted(p for p in ROOT.rglob("*.rs") if p.name != "tests.rs")
    modules = {module_path(p) for p in files}
    edges = {}  # parent -> {child: {child2: [file]}}
    for path in files:
        here = module_path(path)
        if here[:1] == ("bin",):
            continue
        text = strip(path.read_text(encoding="utf-8"))
        paths = list(use_trees(text))
        paths += re.findall(r"\b((?:crate|super)(?:\s*::\s*\w+)+)", re.sub(r"\buse\s+[^;]+;", "", text))
        for p in paths:
            target = resolve(p.replace(" ", ""), here)
            if target is None:
                continue
            # The longest known module prefix of the target.
            while target and target not in modules:
                target = target[:-1]
            # The nearest common ancestor decides which siblings the edge joins.
            k = 0
            while k < min(len(here), len(target)) and here[k] == target[k]:
                k += 1
            if k >= len(here) or k >= len(target):
                continue  # an ancestor or a descendant, not a sibling
            parent, a, b = here[:k], here[k], target[k]
            edges.setdefault(parent, {}).setdefault(a, {}).setdefault(b, set()).add(str(path))
    cycles = []
    for parent, graph in sorted(edges.items()):
        for a, outs in sorted(graph.items()):
            for b in sorted(outs):
                if a < b and a in graph.get(b, {}):
                    name = "::".join(parent) or "crate"
                    cycles.append(
                        f"{name}: {a} <-> {b}\n"
                        f"    {a} -> {b} in {', '.join(sorted(outs[b]))}\n"
                        f"    {b} -> {a} in {', '.join(sorted(graph[b][a]))}"
                    )
        # Longer cycles: a depth-first search over the sibling graph.
        nodes = sorted(graph)
        color, stack = {}, []

        def visit(u):
            color[u] = 1
            stack.append(u)
            for v in sorted(graph.get(u, {})):
                if color.get(v) == 1:
                    cyc = stack[stack.index(v):] + [v]
                    if len(cyc) > 3:
                        cycles.append(f"{'::'.join(parent) or 'crate'}: " + " -> ".join(cyc))
                elif not color.get(v):
                    visit(v)
            stack.pop()
            color[u] = 2

        for u in nodes:
            if not color.get(u):
                visit(u)
    if cycles:
        print("import cycles between modules (the later stage must not be imported by the earlier):")
        print("\n".join(cycles))
        return 1
    print(f"check-imports: {len(modules)} modules, no cycle")
    return 0


def self_test() -> int:
    """The check finds a planted cycle, through a `use` group and through `super::`, and
    passes the same tree without it."""
    import tempfile

    global ROOT
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        (root / "a").mkdir()
        (root / "lib.rs").write_text("mod a;\nmod b;\n")
        (root / "a" / "mod.rs").write_text("mod x;\nmod y;\nuse crate::{b::{self, T}};\n")
        (root / "a" / "x.rs").write_text("use super::y::Y; // a comment naming crate::b\n")
        (root / "a" / "y.rs").write_text('pub struct Y; const S: &str = "super::x";\n')
        (root / "b.rs").write_text("pub struct T;\n")
        ROOT = root
        clean = main()
        (root / "b.rs").write_text("pub struct T;\nfn f() { crate::a::g(); }\n")
        (root / "a" / "y.rs").write_text("pub struct Y;\nuse super::{x};\n")
        cycles = main()
    if clean != 0 or cycles != 1:
        print(f"check-imports self-test failed: clean tree gave {clean}, cyclic tree {cycles}")
        return 1
    print("check-imports self-test: a planted cycle is found, the clean tree passes")
    return 0


if __name__ == "__main__":
    if sys.argv[1:] == ["--self-test"]:
        sys.exit(self_test())
    sys.exit(main())
