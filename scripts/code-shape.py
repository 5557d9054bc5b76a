#!/usr/bin/env python3
"""Print the shape figures issue 40 asks for, for a source tree.

Usage: scripts/code-shape.py [ROOT] [--files-over N] [--functions-over N]

ROOT (default: the current directory) holds `Sources/`; every `*.swift` file under it is
measured. Three lists are printed, each with its count:

- files over 500 lines (physical lines, comments and blank lines included);
- functions over 60 lines: a `func`, `init`, `deinit` or `subscript` declaration, counted
  from its first line to the line of the brace that closes its body;
- `ParallelWork` call sites: each `ParallelWork.` outside comments, outside ParallelWork's
  own file.

Limits, known and accepted: braces are counted without a Swift parser. The contents of
string literals, one-line and multi-line (triple-quoted), are passed over; braces inside raw strings
(`#"..."#`) can still throw a count off;
comments are recognised only as `//` lines and `/* ... */` blocks that do not share a line
with a string. A declaration without a body (a protocol requirement) is skipped. Nested
functions are measured on their own and also inside the function around them. Computed
properties, closures and `get`/`set` accessors are not functions here.
"""

import argparse
import pathlib
import re
import sys

DECLARATION = re.compile(
    r"^\s*(?:@\w+(?:\([^)]*\))?\s+)*"
    r"(?:(?:public|internal|private|fileprivate|package|open|static|class|final|override|"
    r"mutating|nonmutating|nonisolated|convenience|required|consuming|borrowing|"
    r"private\(set\)|fileprivate\(set\))\s+)*"
    r"(func\s+[^\s(<]+|init[?!]?|deinit|subscript)\s*[(<{]?"
)


def strip_comments(lines):
    """The lines with `//` comments and `/* */` blocks blanked, string literals kept."""
    out = []
    in_block = False
    for line in lines:
        text = ""
        i = 0
        in_string = False
        while i < len(line):
            if in_block:
                end = line.find("*/", i)
                if end < 0:
                    i = len(line)
                    continue
                in_block = False
                i = end + 2
                continue
            ch = line[i]
            if in_string:
                text += ch
                if ch == "\\":
                    text += line[i + 1 : i + 2]
                    i += 2
                    continue
                if ch == '"':
                    in_string = False
                i += 1
                continue
            if line.startswith("//", i):
                break
            if line.startswith("/*", i):
                in_block = True
                i += 2
                continue
            if ch == '"':
                in_string = True
            text += ch
            i += 1
        out.append(text)
    return out


def without_multiline_strings(lines):
    """The lines with the contents of multi-line (triple-quoted) string literals blanked, so
    the shell or roff text a generator writes does not count as braces."""
    out = []
    inside = False
    for line in lines:
        parts = line.split('"""')
        text = ""
        for index, part in enumerate(parts):
            if not inside:
                text += part
            if index < len(parts) - 1:
                text += '""' if not inside else ""
                inside = not inside
        out.append(text)
    return out


def without_strings(line):
    """A code line with the contents of one-line string literals removed."""
    return re.sub(r'"(?:[^"\\]|\\.)*"', '""', line)


def functions(lines):
    """(name, first line, length) of each function with a body."""
    code = [without_strings(line) for line in strip_comments(without_multiline_strings(lines))]
    found = []
    for start, line in enumerate(code):
        match = DECLARATION.match(line)
        if not match:
            continue
        depth = 0
        opened = False
        for number in range(start, len(code)):
            segment = code[number]
            if number == start:
                segment = segment[match.start(1) :]
            for ch in segment:
                if ch == "{":
                    depth += 1
                    opened = True
                elif ch == "}":
                    depth -= 1
            if opened and depth <= 0:
                found.append((match.group(1).split()[-1], start + 1, number - start + 1))
                break
            # A declaration that ends before any brace (a protocol requirement) has no body.
            if not opened and number > start and DECLARATION.match(code[number]):
                break
            if not opened and depth == 0 and number - start > 40:
                break
    return found


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("root", nargs="?", default=".")
    parser.add_argument("--files-over", type=int, default=500)
    parser.add_argument("--functions-over", type=int, default=60)
    args = parser.parse_args()
    root = pathlib.Path(args.root)
    sources = sorted((root / "Sources").rglob("*.swift"))
    if not sources:
        print(f"no Swift files under {root / 'Sources'}", file=sys.stderr)
        return 2
    long_files, long_functions, parallel = [], [], []
    for path in sources:
        lines = path.read_text(encoding="utf-8").splitlines()
        name = path.relative_to(root)
        if len(lines) > args.files_over:
            long_files.append((len(lines), name))
        for function, line, length in functions(lines):
            if length > args.functions_over:
                long_functions.append((length, f"{name}:{line}", function))
        if path.name != "ParallelWork.swift":
            for number, line in enumerate(strip_comments(lines), 1):
                if "ParallelWork." in without_strings(line):
                    parallel.append(f"{name}:{number}")
    print(f"files over {args.files_over} lines: {len(long_files)}")
    for length, name in sorted(long_files, reverse=True):
        print(f"  {length:5} {name}")
    print(f"functions over {args.functions_over} lines: {len(long_functions)}")
    for length, place, function in sorted(long_functions, reverse=True):
        print(f"  {length:5} {place} {function}")
    print(f"ParallelWork call sites: {len(parallel)}")
    for place in parallel:
        print(f"  {place}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
