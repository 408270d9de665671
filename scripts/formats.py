#!/usr/bin/env python3
"""Format coverage from the census (docs/formats/*.md): per producer, the rows, the rows a reader
handles, the rows a test names, and the years the rows' versions span.

A census row is a line of a markdown table whose header has a `reader` and a `test` column. A row
counts as read unless its reader cell is empty, `none`, `—` or starts with `not read`; `same`
repeats the reader of the row above. A row counts as tested when its test cell names something.

The test cell's references are checked against the tree, because a census that names a test or a
sample that no longer exists claims coverage it does not have:
- a backticked Rust path or name in snake_case must appear in the Rust sources under crate/,
  tests/ or fuzz/ (its last segment: a test, a function, a module or a field);
- `census "name"` must be a row of crate/src/ingest/census_tests.rs;
- a backticked file name with an extension must be a file under samples/ or the census folder.
A dangling reference fails the run (exit 1), so `make lint` keeps the census honest.

Usage: formats.py [--markdown] [--self-test]
"""

import os
import re
import sys

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
CENSUS = os.path.join(ROOT, "docs", "formats")
SKIP = {"README.md", "wrappers.md"}

UNREAD = re.compile(r"^\s*(|none|—|-|not read.*)\s*$", re.IGNORECASE)
UNTESTED = re.compile(r"^\s*(|none|—|-)\s*$", re.IGNORECASE)
YEAR = re.compile(r"\b(19[89]\d|20[0-4]\d)\b")
# Producers that number releases rather than date them: TensorFlow, macOS, Android, L4T, the
# NVIDIA driver, perf / the kernel ("4.10 → now").
RELEASE = re.compile(r"\b(TF|macOS|Android|driver|perf)\s+(\d+(?:\.\d+)?)|\b(R)(\d{2})\b|^(?:default, )?()(\d\.\d+) →")
BACKTICK = re.compile(r"`([^`]+)`")
CENSUS_REF = re.compile(r'census "([^"]+)"')
FN_NAME = re.compile(r"^[a-z_][a-z0-9_]*(::[a-z_][a-z0-9_]*)*$")
# The corpus logs' names end in "-N.log" (../shared/corpus/logs).
CORPUS_NAME = re.compile(r"^[\w.-]+-\d+\.log$")
FILE_NAME = re.compile(r"^[\w./-]+\.(txt|log|md|csv|json|tsv|gz|data|jsonl|html)$")


def split_row(line):
    """The cells of a table line; a `|` inside a code span or escaped as `\\|` stays in its cell."""
    cells, cell, code, i = [], "", False, 0
    body = line.strip()
    body = body[1:] if body.startswith("|") else body
    body = body[:-1] if body.endswith("|") and not body.endswith("\\|") else body
    while i < len(body):
        ch = body[i]
        if ch == "\\" and body[i + 1 : i + 2] == "|":
            cell += "|"
            i += 2
            continue
        if ch == "`":
            code = not code
        if ch == "|" and not code:
            cells.append(cell.strip())
            cell = ""
        else:
            cell += ch
        i += 1
    cells.append(cell.strip())
    return cells


def tables(text):
    """Yields (header cells, row cells, line number) for every census table in a markdown text."""
    lines = text.splitlines()
    i = 0
    while i + 1 < len(lines):
        head, rule = lines[i], lines[i + 1]
        if head.lstrip().startswith("|") and re.match(r"^\s*\|[\s:|-]+\|\s*$", rule):
            cols = [c.lower() for c in split_row(head)]
            has = lambda word: any(c.startswith(word) for c in cols)
            j = i + 2
            if has("reader") and has("test"):
                while j < len(lines) and lines[j].lstrip().startswith("|"):
                    yield cols, split_row(lines[j]), j + 1
                    j += 1
            i = j
        else:
            i += 1


def column(cols, word):
    return next(k for k, c in enumerate(cols) if c.startswith(word))


class Tree:
    """What the test cells may name: functions, census rows and sample files."""

    def __init__(self, root):
        self.idents, self.census_rows, self.files = set(), "", set()
        for top in ("crate", "tests", "fuzz"):
            for path in walk(os.path.join(root, top), (".rs",)):
                with open(path, encoding="utf-8", errors="replace") as f:
                    text = f.read()
                self.idents.update(re.findall(r"\b[a-z_][a-z0-9_]*\b", text))
                self.idents.add(os.path.splitext(os.path.basename(path))[0])
                if path.endswith("census_tests.rs"):
                    self.census_rows += text
        # The real-log corpus sits beside the repository in this workplace; CI has no copy, so
        # its names are accepted there only when the folder is present.
        corpus = os.path.join(root, "..", "shared", "corpus")
        self.corpus_present = os.path.isdir(corpus)
        for top in ("samples", os.path.join("docs", "formats"), corpus):
            for path in walk(os.path.join(root, top), None):
                rel = os.path.relpath(path, root)
                self.files.add(rel)
                self.files.add(os.path.basename(path))
                self.files.add(os.path.relpath(path, os.path.join(root, "samples")))

    def dangling(self, cell):
        out = []
        for name in CENSUS_REF.findall(cell):
            if f'"{name}' not in self.census_rows:
                out.append(f'census "{name}"')
        for ref in BACKTICK.findall(cell):
            ref = ref.strip()
            if FILE_NAME.match(ref):
                if ref not in self.files and ref.lstrip("./") not in self.files:
                    if self.corpus_present or not CORPUS_NAME.match(ref):
                        out.append(ref)
            elif FN_NAME.match(ref) and "_" in ref.split("::")[-1]:
                if ref.split("::")[-1] not in self.idents:
                    out.append(ref)
        return out


def walk(top, exts):
    for dirpath, dirnames, filenames in os.walk(top):
        dirnames[:] = [d for d in dirnames if d not in ("target", "node_modules", ".git")]
        for name in filenames:
            if exts is None or name.endswith(exts):
                yield os.path.join(dirpath, name)


def census(path, tree):
    with open(path, encoding="utf-8") as f:
        text = f.read()
    rows = read = tested = 0
    years, dangling, releases = [], [], {}
    reader, named = "", False
    for cols, cells, line in tables(text):
        if len(cells) != len(cols):
            dangling.append(f"line {line}: {len(cells)} cells under a {len(cols)}-column header")
            continue
        rows += 1
        cell = cells[column(cols, "reader")]
        if not re.match(r"^\s*same\b", cell, re.IGNORECASE):
            reader = cell
        if not UNREAD.match(reader):
            read += 1
        test = cells[column(cols, "test")]
        if not re.match(r"^\s*same\b", test, re.IGNORECASE):
            named = not UNTESTED.match(test)
        if named:
            tested += 1
        versions = " ".join(c for k, c in enumerate(cells) if "version" in cols[k] or "where" in cols[k])
        years += [int(y) for y in YEAR.findall(versions)]
        for m in RELEASE.finditer(versions):
            name = m.group(1) or m.group(3) or m.group(5) or ""
            number = m.group(2) or m.group(4) or m.group(6)
            releases.setdefault(name, []).append(number)
        dangling += [f"line {line}: {ref}" for ref in tree.dangling(test)]
    spans = [f"{min(years)}–{max(years)}"] if years else []
    for name, numbers in releases.items():
        key = lambda n: tuple(int(p) for p in n.split("."))
        low, high = min(numbers, key=key), max(numbers, key=key)
        sep = " " if len(name) > 1 else ""
        spans.append(f"{name}{sep}{low}" + (f"–{high}" if high != low else ""))
    span = ", ".join(spans) or "—"
    return rows, read, tested, span, dangling


def main(argv):
    if "--self-test" in argv:
        return self_test()
    tree = Tree(ROOT)
    results = []
    for name in sorted(os.listdir(CENSUS)):
        if not name.endswith(".md") or name in SKIP:
            continue
        rows, read, tested, span, dangling = census(os.path.join(CENSUS, name), tree)
        if rows:
            results.append((name[:-3], rows, read, tested, span, dangling))
    total = [sum(r[k] for r in results) for k in (1, 2, 3)]
    if "--markdown" in argv:
        print("| Producer | Census rows | Read | Tested | Versions |")
        print("|---|---:|---:|---:|---|")
        for name, rows, read, tested, span, _ in results:
            print(f"| {name} | {rows} | {read} | {tested} | {span} |")
        print(f"| **all** | **{total[0]}** | **{total[1]}** | **{total[2]}** | |")
    else:
        print(f"{'producer':<20} {'rows':>5} {'read':>5} {'tested':>7}  versions")
        for name, rows, read, tested, span, _ in results:
            print(f"{name:<20} {rows:>5} {read:>5} {tested:>7}  {span}")
        print(f"{'all':<20} {total[0]:>5} {total[1]:>5} {total[2]:>7}")
    bad = [(name, d) for name, *_, dangling in results for d in dangling]
    for name, d in bad:
        print(f"formats: docs/formats/{name}.md {d}: named in the test column, not found in the tree", file=sys.stderr)
    print(f"{len(results)} producers; {total[1]} of {total[0]} rows read ({100 * total[1] / max(total[0], 1):.0f}%), "
          f"{total[2]} tested; {len(bad)} dangling test reference(s)")
    return 1 if bad else 0


def self_test():
    import tempfile

    with tempfile.TemporaryDirectory() as root:
        os.makedirs(os.path.join(root, "crate", "src", "ingest"))
        os.makedirs(os.path.join(root, "samples", "logs"))
        with open(os.path.join(root, "crate", "src", "ingest", "census_tests.rs"), "w") as f:
            f.write('Row { producer: "demo decode", shape: "x" }\nfn reads_the_decode_line() {}\n')
        open(os.path.join(root, "samples", "logs", "demo.log"), "w").close()
        doc = os.path.join(root, "demo.md")
        with open(doc, "w") as f:
            f.write(
                "| Shape | Where, versions | Fact | Reader | Test |\n|---|---|---|---|---|\n"
                "| `a` | x.cpp, 2019-01 → 2024-05, TF 2.9 | decode | `Demo::line` | census \"demo decode\", sample `demo.log` |\n"
                "| `b` | same | prefill | same | `reads_the_decode_line` |\n"
                "| `c` | y.cpp, 2021, TF 2.10 | nothing | not read: no fact | — |\n"
                "| `d` | z.cpp | broken | `Demo::line` | `gone_test_name`, `missing.txt`, census \"no such row\" |\n"
            )
        tree = Tree(root)
        rows, read, tested, span, dangling = census(doc, tree)
        assert (rows, read, tested) == (4, 3, 3), (rows, read, tested)
        assert span == "2019–2024, TF 2.9–2.10", span
        assert [d.split(": ", 1)[1] for d in dangling] == ['census "no such row"', "gone_test_name", "missing.txt"], dangling
    print("formats.py self-test: ok")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
