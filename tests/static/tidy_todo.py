#!/usr/bin/env python3
"""Which translation units clang-tidy must check (tests/static/check.sh).

    ninja -C BUILD -t deps | VERSIONS=... tidy_todo.py COMPILE_COMMANDS ROOT BUILD CACHE FILE...

Prints "KEY FILE" for every FILE in the compilation database whose key is not in CACHE (an
empty CACHE: every one). The key is a hash of the file, every project file it includes (from
ninja's dependency log on stdin), its compile command (build and source paths normalised, so a
clone elsewhere hits), .clang-tidy and $VERSIONS (the tools' and libraries' versions).
"""
import hashlib, json, os, sys
db_path, root, build, cache, *sources = sys.argv[1:]
entries = {e["file"]: e for e in json.load(open(db_path))}
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
            deps[obj].append(path)
common = hashlib.sha256()
common.update(os.environ.get("VERSIONS", "").encode())
common.update(open(os.path.join(root, ".clang-tidy"), "rb").read())
def norm(text):
    return text.replace(build, "@BUILD@").replace(root, "@ROOT@")
def digest(path):
    try:
        return hashlib.sha256(open(path, "rb").read()).hexdigest()
    except OSError:
        return "missing"
checked = skipped = 0
for f in sources:
    e = entries.get(f)
    if e is None:
        continue
    command = e.get("command") or " ".join(e.get("arguments", []))
    h = common.copy()
    h.update(norm(command).encode())
    h.update(digest(f).encode())
    args = command.split()
    out = args[args.index("-o") + 1] if "-o" in args else None
    found = deps.get(out) if out else None
    if found is None:  # no dependency record: never cached
        h.update(os.urandom(16))
        found = []
    for d in sorted(set(found)):
        h.update(norm(d).encode() + b"\0" + digest(d).encode())
    key = h.hexdigest()
    if cache and os.path.exists(os.path.join(cache, key)):
        skipped += 1
        continue
    checked += 1
    print(key, f)
print(f"    {checked} translation units to check, {skipped} unchanged since they passed",
      file=sys.stderr)
