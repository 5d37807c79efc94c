#!/usr/bin/env python3
"""Folder layering check (issue: design): the folders of this repository
must include one another without a cycle, so that every folder has a place
in one order (option types and test switches below the features, the
features below utilities/lodestone, tools on top).

An edge A -> B is an `#include "..."` in a file of folder A that names a
file of this repository in folder B (our public headers are named as
"rocksdb/<name>.h" and live in include/rocksdb). Includes of upstream
files are not edges: upstream is below everything. A check that found no
edge has checked nothing, so that fails too.

  tools/layering.py              check the repository
  tools/layering.py --self-test  show that a planted cycle is caught
"""

import os
import re
import sys

from lint import ROOT, tracked_files  # the repository's files, as lint sees them

SOURCES = (".cc", ".h", ".c", ".inc")
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)
# The repository's own public headers, as includers name them.
PUBLIC_PREFIX = "rocksdb/"
PUBLIC_DIR = "include/rocksdb/"


def folder_edges(files, read):
    """{(from_folder, to_folder)} for the given repository paths; read(path)
    returns a file's text."""
    tracked = set(files)
    edges = set()
    for path in files:
        if not path.endswith(SOURCES):
            continue
        here = os.path.dirname(path)
        for name in INCLUDE.findall(read(path)):
            target = name
            if name.startswith(PUBLIC_PREFIX):
                target = PUBLIC_DIR + name[len(PUBLIC_PREFIX):]
            if target not in tracked:
                continue  # upstream's, or a generated file
            there = os.path.dirname(target)
            if there != here:
                edges.add((here, there))
    return edges


def cycles(edges):
    """The strongly connected components of more than one folder (Tarjan),
    each sorted."""
    graph = {}
    for a, b in edges:
        graph.setdefault(a, set()).add(b)
        graph.setdefault(b, set())
    index, low, stack, on_stack, out = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                out.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def check(files, read):
    """(failures, edges)."""
    edges = folder_edges(files, read)
    failures = []
    if not edges:
        failures.append("no include between our folders found: nothing was checked")
    for component in cycles(edges):
        inner = sorted((a, b) for a, b in edges if a in component and b in component)
        failures.append("cycle among %s: %s" % (
            ", ".join(component), "; ".join("%s -> %s" % e for e in inner)))
    return failures, edges


def self_test():
    planted = {
        "a/x.cc": '#include "b/y.h"\n',
        "b/y.h": '#include "rocksdb/z.h"\n',
        "include/rocksdb/z.h": '#include "a/x.h"\n#include "db/upstream.h"\n',
        "a/x.h": "",
    }
    failures, _ = check(sorted(planted), planted.get)
    if len(failures) != 1 or "a, b, include/rocksdb" not in failures[0]:
        print("layering self-test: the planted cycle a -> b -> include/rocksdb "
              "-> a was not reported: %r" % failures)
        return 1
    acyclic = dict(planted, **{"include/rocksdb/z.h": ""})
    failures, edges = check(sorted(acyclic), acyclic.get)
    if failures or len(edges) != 2:
        print("layering self-test: an acyclic tree failed: %r" % failures)
        return 1
    print("layering self-test: a planted cycle is reported, its absence passes")
    return 0


def main(argv):
    if "--self-test" in argv:
        return self_test()
    files = tracked_files()

    def read(path):
        with open(os.path.join(ROOT, path), encoding="utf-8", errors="replace") as f:
            return f.read()

    failures, edges = check(files, read)
    folders = {f for e in edges for f in e}
    print("layering: %d folders, %d edges between them" % (len(folders), len(edges)))
    for f in failures:
        print("  " + f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
