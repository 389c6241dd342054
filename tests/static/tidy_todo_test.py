#!/usr/bin/env python3
"""tidy_todo.py's cache keys: what clang-tidy is asked to check again (tests/static/check.sh)."""
import os, subprocess, sys, tempfile, json

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPT = os.path.join(HERE, "tidy_todo.py")


def todo(root, build, cache, deps, versions="v1", **env):
    out = subprocess.run(
        [sys.executable, SCRIPT, os.path.join(build, "compile_commands.json"), root, build, cache,
         os.path.join(root, "a.cpp"), os.path.join(root, "b.cpp"), os.path.join(root, "c.cpp")],
        input=deps, capture_output=True, text=True,
        env={**os.environ, "VERSIONS": versions, **env}, check=True)
    return {line.split(" ", 1)[1]: line.split(" ", 1)[0] for line in out.stdout.splitlines()}


def git(root, *args):
    subprocess.run(["git", "-C", root, "-c", "user.name=t", "-c", "user.email=t@t", *args],
                   check=True, capture_output=True)


def unity_and_baseline():
    """A unity build's batch file stands for its sources; a fresh clone checks only what
    changed since the baseline commit."""
    with tempfile.TemporaryDirectory() as root:
        build = os.path.join(root, "build")
        unity = os.path.join(build, "unity", "t", "unity_0.cpp")
        os.makedirs(os.path.dirname(unity))
        os.makedirs(os.path.join(root, "sub"))
        for name, text in {"a.cpp": '#include "a.h"\n', "b.cpp": "int b;\n", "a.h": "int a;\n",
                           ".clang-tidy": "Checks: bugprone-*\n", "CMakeLists.txt": "# top\n",
                           "sub/CMakeLists.txt": "# sub\n", "sub/c.cpp": "int c;\n",
                           ".gitignore": "/build/\n"}.items():
            open(os.path.join(root, name), "w").write(text)
        a, b, c = (os.path.join(root, f) for f in ("a.cpp", "b.cpp", "sub/c.cpp"))
        # cmake/UnityBatches.cmake's batch: its sources relative to itself.
        open(unity, "w").write('/* generated */\n#include "../../../a.cpp"\n#include "../../../b.cpp"\n')
        obj = "unity/t/unity_0.cpp.o"
        json.dump([{"file": unity, "directory": build, "command": f"c++ -DX -o {obj} -c {unity}"},
                   {"file": c, "directory": build, "command": f"c++ -o c.o -c {c}"}],
                  open(os.path.join(build, "compile_commands.json"), "w"))
        deps = (f"{obj}: #deps 4\n    {unity}\n    {a}\n    {root}/a.h\n    {b}\n\n"
                f"c.o: #deps 1\n    {c}\n\n")

        def run(**env):
            out = subprocess.run([sys.executable, SCRIPT, os.path.join(build, "compile_commands.json"),
                                  root, build, "", a, b, c], input=deps, capture_output=True,
                                 text=True, env={**os.environ, "VERSIONS": "v1", **env}, check=True)
            return {line.split(" ", 1)[1] for line in out.stdout.splitlines()}

        assert run() == {a, b, c}, "no git, no baseline: everything"
        tidy_db = json.load(open(os.path.join(build, "tidy", "compile_commands.json")))
        assert {e["file"]: e["command"] for e in tidy_db} == {
            a: f"c++ -DX -o {obj} -c {a}", b: f"c++ -DX -o {obj} -c {b}",
            c: f"c++ -o c.o -c {c}"}, tidy_db

        git(root, "init", "-q")
        git(root, "add", "-A")
        git(root, "commit", "-qm", "base")
        tools = os.path.join(root, "tools")
        run(TIDY_TOOLS_OUT=tools)
        base = subprocess.run(["git", "-C", root, "rev-parse", "HEAD"], capture_output=True,
                              text=True, check=True).stdout.strip()
        baseline = os.path.join(root, "tests", "static", "tidy-baseline")
        os.makedirs(os.path.dirname(baseline))
        open(baseline, "w").write(f"# comment\ncommit {base}\ntools {open(tools).read()}")
        os.remove(tools)
        git(root, "add", "-A")
        git(root, "commit", "-qm", "baseline")
        assert run() == set(), "nothing changed since the baseline"
        assert run(TIDY_BASELINE="0") == {a, b, c}, "TIDY_BASELINE=0 checks everything"
        assert run(VERSIONS="v2") == set(), "other tools than the baseline ran with: what changed"
        other = subprocess.run([sys.executable, SCRIPT, os.path.join(build, "compile_commands.json"),
                                root, build, "", a, b, c], input=deps, capture_output=True,
                               text=True, env={**os.environ, "VERSIONS": "v2"}, check=True)
        assert "other versions" in other.stderr and "--baseline" in other.stderr, other.stderr

        open(os.path.join(root, "a.h"), "w").write("int a2;\n")  # uncommitted header change
        assert run() == {a, b}, "a header of the batch changed: its sources"
        git(root, "checkout", "-q", "--", "a.h")
        open(os.path.join(root, "sub", "CMakeLists.txt"), "w").write("# flags\n")
        git(root, "commit", "-qam", "flags")
        assert run() == {c}, "a folder's CMakeLists.txt changed: its files"
        open(os.path.join(root, "CMakeLists.txt"), "w").write("# top 2\n")
        assert run() == {a, b, c}, "the top CMakeLists.txt: everything"
        git(root, "checkout", "-q", "--", "CMakeLists.txt")
        open(os.path.join(root, "sub", "new.h"), "w").write("int n;\n")  # untracked
        assert run() == {c}, "still only the folder whose CMakeLists.txt changed"
        open(os.path.join(root, ".clang-tidy"), "w").write("Checks: performance-*\n")
        assert run() == {a, b, c}, ".clang-tidy changed"
        git(root, "checkout", "-q", "--", ".clang-tidy")
        tools_hash = open(baseline).read().split()[-1]
        open(baseline, "w").write(f"commit {'0' * 40}\ntools {tools_hash}\n")
        assert run() == {a, b, c}, "a baseline commit not in the history"

        # A baseline with each file's command hash: CMake changes count only where a file's
        # compile command changed.
        commands = os.path.join(root, "commands")
        run(TIDY_COMMANDS_OUT=commands)
        lines = open(commands).read()
        assert sorted(line.split()[2] for line in lines.splitlines()) == [
            "a.cpp", "b.cpp", "sub/c.cpp"], lines
        head = subprocess.run(["git", "-C", root, "rev-parse", "HEAD"], capture_output=True,
                              text=True, check=True).stdout.strip()
        open(baseline, "w").write(f"commit {head}\ntools {tools_hash}\n{lines}")
        os.remove(commands)
        git(root, "commit", "-qam", "baseline with commands")
        assert run() == set(), "nothing changed since the baseline with commands"
        open(os.path.join(root, "CMakeLists.txt"), "w").write("# top 3\n")
        git(root, "commit", "-qam", "top, same flags")
        assert run() == set(), "a CMakeLists.txt change that left every command alone"
        db = json.load(open(os.path.join(build, "compile_commands.json")))
        original = db[1]["command"]
        for debug in ("-g", "-gline-tables-only", "-g3 -gdwarf-5"):
            db[1]["command"] = original.replace(" -c ", f" {debug} -c ")
            json.dump(db, open(os.path.join(build, "compile_commands.json"), "w"))
            assert run() == set(), f"c.cpp's command with {debug} only: nothing for clang-tidy"
        db[1]["command"] = f"c++ -DY -o c.o -c {c}"
        json.dump(db, open(os.path.join(build, "compile_commands.json"), "w"))
        assert run() == {c}, "c.cpp's command changed"
        moved = os.path.join(root, "elsewhere")  # a clone elsewhere: same hashes
        os.rename(build, moved)
        os.makedirs(build)
        for e in db:
            for k in ("file", "directory", "command"):
                e[k] = e[k].replace(build, moved)
        json.dump(db, open(os.path.join(moved, "compile_commands.json"), "w"))
        build = moved
        open(os.path.join(root, "a.h"), "w").write("int a3;\n")
        assert run() == {a, b, c}, "a.h changed (a, b) and c's command (c), in another build dir"


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
    unity_and_baseline()
    print("tidy_todo: unity batches and the baseline commit ok")


if __name__ == "__main__":
    main()
