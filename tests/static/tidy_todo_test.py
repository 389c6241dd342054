#!/usr/bin/env python3
"""tidy_todo.py's cache keys: what clang-tidy is asked to check again (tests/static/check.sh)."""
import os, subprocess, sys, tempfile, json

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPT = os.path.join(HERE, "tidy_todo.py")


def todo(root, build, cache, deps, versions="v1"):
    out = subprocess.run(
        [sys.executable, SCRIPT, os.path.join(build, "compile_commands.json"), root, build, cache,
         os.path.join(root, "a.cpp"), os.path.join(root, "b.cpp"), os.path.join(root, "c.cpp")],
        input=deps, capture_output=True, text=True, env={**os.environ, "VERSIONS": versions},
        check=True)
    return {line.split(" ", 1)[1]: line.split(" ", 1)[0] for line in out.stdout.splitlines()}


def main():
    with tempfile.TemporaryDirectory() as root:
        build, cache = os.path.join(root, "build"), os.path.join(root, "cache")
        os.makedirs(build), os.makedirs(cache)
        for name, text in {"a.cpp": '#include "a.h"\n', "b.cpp": "int b;\n", "a.h": "int a;\n",
                           ".clang-tidy": "Checks: bugprone-*\n"}.items():
            open(os.path.join(root, name), "w").write(text)
        # c.cpp is not in the compilation database: never checked here.
        json.dump([{"file": os.path.join(root, f), "directory": build,
                    "command": f"c++ -c {root}/{f} -o {f}.o"} for f in ("a.cpp", "b.cpp")],
                  open(os.path.join(build, "compile_commands.json"), "w"))
        deps = (f"a.cpp.o: #deps 3\n    {root}/a.cpp\n    {root}/a.h\n    /usr/include/x.h\n\n"
                f"b.cpp.o: #deps 1\n    {root}/b.cpp\n\n")
        a, b = os.path.join(root, "a.cpp"), os.path.join(root, "b.cpp")

        first = todo(root, build, cache, deps)
        assert set(first) == {a, b}, first
        for key in first.values():  # both passed
            open(os.path.join(cache, key), "w").close()
        assert todo(root, build, cache, deps) == {}, "unchanged files are checked again"

        open(os.path.join(root, "a.h"), "w").write("int a2;\n")  # a header a.cpp includes
        assert set(todo(root, build, cache, deps)) == {a}, "a header change must recheck a.cpp"
        open(os.path.join(root, "a.h"), "w").write("int a;\n")
        assert todo(root, build, cache, deps) == {}

        assert set(todo(root, build, cache, deps, versions="v2")) == {a, b}, "new tool versions"
        open(os.path.join(root, ".clang-tidy"), "w").write("Checks: performance-*\n")
        assert set(todo(root, build, cache, deps)) == {a, b}, "a .clang-tidy change"
        open(os.path.join(root, ".clang-tidy"), "w").write("Checks: bugprone-*\n")

        # No dependency record for a file: always checked, never trusted from the cache.
        assert set(todo(root, build, cache, f"b.cpp.o: #deps 1\n    {root}/b.cpp\n\n")) == {a}
        # No cache at all: everything.
        assert set(todo(root, build, "", deps)) == {a, b}
    print("tidy_todo: cache keys ok")


if __name__ == "__main__":
    main()
