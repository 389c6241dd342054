#!/usr/bin/env python3
"""Which translation units clang-tidy must check (tests/static/check.sh).

    ninja -C BUILD -t deps | VERSIONS=... tidy_todo.py COMPILE_COMMANDS ROOT BUILD CACHE FILE...

Prints "KEY FILE" for every FILE in the compilation database that must be checked, and writes
BUILD/tidy/compile_commands.json, the database clang-tidy is run with: one entry per source
file. In a unity build the database lists only the batch files (each including a few sources);
a source in a batch gets the batch's command with its own path.

A file is skipped when either says it passed with everything it reads unchanged:
- the cache: its key is a file in CACHE (an empty CACHE: none is). The key is a hash of the
  file, every project file it includes (from ninja's dependency log on stdin), its compile
  command (build and source paths normalised, so a clone elsewhere hits; the object file left
  out), .clang-tidy and
  $VERSIONS (the tools' and libraries' versions).
- the baseline (ROOT/tests/static/tidy-baseline, unless TIDY_BASELINE=0): the last commit on
  which a full run passed, the hash of .clang-tidy and $VERSIONS it ran with, and the hash of
  each file's compile command then (normalised as above). A file is unchanged since then when
  neither it nor any project file it includes differs from that commit (`git diff`, untracked
  files counted) and its compile command hashes the same: a CMake change that leaves a file's
  flags alone does not make it checked again. (A baseline without command hashes counts a
  change to the CMakeLists.txt of the file's folder or any folder above instead.) A fresh clone
  thus checks only what changed since the baseline, also with other tool versions than the
  baseline's (it says so); without git or with the commit not in the history, every file is
  checked.

With TIDY_COMMANDS_OUT set, writes the "command HASH FILE" lines of the baseline there.
"""
import hashlib, json, os, re, subprocess, sys

db_path, root, build, cache, *sources = sys.argv[1:]

# The compilation database, one entry per source.
entries = {}
# A unity batch: CMake's (Unity/unity_N_cxx.cxx, absolute includes) or cmake/UnityBatches.cmake's
# (unity/TARGET/unity_N.cpp, includes relative to the batch file).
batch_name = re.compile(r"/[Uu]nity/(?:[^/]+/)?unity_\d+(?:_cxx\.cxx|\.cpp)$")
for e in json.load(open(db_path)):
    f = e["file"]
    if batch_name.search(f):
        command = e.get("command") or " ".join(e.get("arguments", []))
        for line in open(f, errors="replace"):
            if line.startswith('#include "'):
                src = os.path.normpath(os.path.join(os.path.dirname(f), line.split('"')[1]))
                entries.setdefault(src, {"directory": e["directory"], "file": src,
                                         "command": command.replace(f, src)})
    else:
        entries.setdefault(f, e)
os.makedirs(os.path.join(build, "tidy"), exist_ok=True)
with open(os.path.join(build, "tidy", "compile_commands.json"), "w") as out:
    json.dump(list(entries.values()), out, indent=1)

# object file (relative to the build dir) -> the project files it read
deps, obj = {}, None
for line in sys.stdin:
    if not line.strip():
        continue
    if not line[0].isspace():
        obj = line.split(":", 1)[0]
        deps[obj] = []
    elif obj is not None:
        path = line.strip()
        if not path.startswith("/"):
            path = os.path.join(build, path)
        if path.startswith(root + "/"):
            deps[obj].append(os.path.normpath(path))
common = hashlib.sha256()
common.update(os.environ.get("VERSIONS", "").encode())
common.update(open(os.path.join(root, ".clang-tidy"), "rb").read())
tools = common.hexdigest()


def norm(text):
    return text.replace(build, "@BUILD@").replace(root, "@ROOT@")


def digest(path):
    try:
        return hashlib.sha256(open(path, "rb").read()).hexdigest()
    except OSError:
        return "missing"


def git(*args):
    return subprocess.run(["git", "-C", root, *args], capture_output=True, text=True)


def norm_command(command):
    """The compile command as clang-tidy sees it: paths normalised, the object file and the
    debug information options left out (where a unity batch puts its object, or how much it
    records for a debugger, changes nothing clang-tidy checks)."""
    args = command.split()
    if "-o" in args and args.index("-o") + 1 < len(args):
        i = args.index("-o")
        del args[i:i + 2]
    args = [a for a in args if not re.fullmatch(r"-g(|[0-3]|line-tables-only|dwarf(-[0-9])?)", a)]
    return norm(" ".join(args))


def command_hash(command):
    return hashlib.sha256(norm_command(command).encode()).hexdigest()[:16]


def relative(f):
    return os.path.relpath(f, root)


baseline_commands = {}  # file (relative to root) -> hash of its compile command at the baseline


def changed_since_baseline():
    """The project files that differ from the baseline commit, or None (check everything)."""
    if os.environ.get("TIDY_BASELINE", "1") == "0":
        return None
    try:
        fields = {}
        for line in open(os.path.join(root, "tests", "static", "tidy-baseline")):
            if line[0] == "#" or not line.strip():
                continue
            key, value = line.split(None, 1)
            if key == "command":
                cmd_hash, f = value.split(None, 1)
                baseline_commands[f.strip()] = cmd_hash
            else:
                fields[key] = value
        commit, ran_with = fields["commit"].strip(), fields["tools"].strip()
    except (OSError, KeyError, ValueError):
        return None
    if ran_with != tools:
        # A Debian point release of clang-tidy, g++ or Qt: what changed since the baseline is
        # still all that is checked (a whole run takes about 15 min here, three times that on a
        # slow CI machine); whatever the new tools find elsewhere is found when those files
        # change, or by a full run now.
        print("    the baseline ran with other versions of clang-tidy, g++ or Qt: checking what "
              "changed since it; `tests/static/check.sh --baseline BUILD_DIR` checks every file "
              "with these and records them", file=sys.stderr)
    diff = git("diff", "--name-only", "--no-renames", commit, "--")
    untracked = git("ls-files", "--others", "--exclude-standard")
    if diff.returncode != 0 or untracked.returncode != 0:
        return None
    names = diff.stdout.splitlines() + untracked.stdout.splitlines()
    return {os.path.normpath(os.path.join(root, n)) for n in names}


changed = changed_since_baseline()


def unchanged_since_baseline(f, found, cmd_hash):
    if changed is None or found is None:
        return False
    if os.path.join(root, ".clang-tidy") in changed:
        return False
    if baseline_commands:
        if baseline_commands.get(relative(f)) != cmd_hash:
            return False
    else:
        d = os.path.dirname(f)
        while d.startswith(root):
            if os.path.join(d, "CMakeLists.txt") in changed:
                return False
            d = os.path.dirname(d)
    # Files in the build tree (moc output, generated headers) follow from project files.
    tracked = [p for p in found if not p.startswith(build + "/")]
    return f not in changed and not any(p in changed for p in tracked)


checked = skipped = baseline = 0
command_lines = []
for f in sources:
    e = entries.get(f)
    if e is None:
        continue
    command = e.get("command") or " ".join(e.get("arguments", []))
    cmd_hash = command_hash(command)
    command_lines.append(f"command {cmd_hash} {relative(f)}\n")
    h = common.copy()
    h.update(norm_command(command).encode())
    h.update(digest(f).encode())
    args = command.split()
    out = args[args.index("-o") + 1] if "-o" in args else None
    found = deps.get(out) if out else None
    if found is None:  # no dependency record: never cached
        h.update(os.urandom(16))
    for d in sorted(set(found or [])):
        h.update(norm(d).encode() + b"\0" + digest(d).encode())
    key = h.hexdigest()
    if cache and os.path.exists(os.path.join(cache, key)):
        skipped += 1
        continue
    if unchanged_since_baseline(f, found, cmd_hash):
        baseline += 1
        continue
    checked += 1
    print(key, f)
print(f"    {checked} translation units to check, {skipped} unchanged since they passed here, "
      f"{baseline} unchanged since the baseline commit",
      file=sys.stderr)
if os.environ.get("TIDY_TOOLS_OUT"):  # check.sh --full records it in the baseline
    open(os.environ["TIDY_TOOLS_OUT"], "w").write(tools + "\n")
if os.environ.get("TIDY_COMMANDS_OUT"):  # and each file's command hash
    open(os.environ["TIDY_COMMANDS_OUT"], "w").write("".join(sorted(command_lines)))
