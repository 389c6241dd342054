#!/usr/bin/env bash
# The translations test: every user-visible string of the console has a translation in every
# committed translations/gatehouse_<lang>.ts.
#
#   bash tests/static/translations.sh LUPDATE SOURCES.lst TS_FILE...
#
# LUPDATE is Qt's lupdate, SOURCES.lst the list file the build writes next to the console
# library (build/app/console/gatehouse_console_lupdate.lst: the include paths and the sources
# qt_add_translations scans). lupdate runs over the current sources into temporary copies of
# the .ts files, with the options of the build's update_translations target, so the committed
# files are never touched. The test fails, listing the strings, when a message
#   - is new: in the sources but not yet in the committed .ts (run the update_translations
#     target, then translate it),
#   - is unfinished (type="unfinished") or has an empty translation or plural form,
#   - has a translation whose placeholders (%1 … %99, %n, %L1) differ from its source's.
set -euo pipefail

if [ $# -lt 3 ]; then
    echo "usage: $0 LUPDATE SOURCES.lst TS_FILE..." >&2
    exit 2
fi
lupdate=$1
list=$2
shift 2

tmp=$(mktemp -d "${TMPDIR:-/tmp}/gatehouse-translations.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

copies=()
for ts in "$@"; do
    [ -f "$ts" ] || { echo "translations: $ts not found" >&2; exit 1; }
    cp "$ts" "$tmp/$(basename "$ts")"
    copies+=("$tmp/$(basename "$ts")")
done

# lupdate's C++ parser warns about Qt's own headers; only its failure matters here.
if ! "$lupdate" "@$list" -ts "${copies[@]}" -no-obsolete -locations none >"$tmp/lupdate.log" 2>&1; then
    cat "$tmp/lupdate.log" >&2
    echo "translations: lupdate failed" >&2
    exit 1
fi
grep -E "^Updating|Found" "$tmp/lupdate.log" | sed -E "s|'[^']*/([^/']+)'|'\1'|" || true

python3 - "$tmp" "$@" <<'PY'
import os, re, sys
import xml.etree.ElementTree as ET

tmp, committed = sys.argv[1], sys.argv[2:]
placeholder = re.compile(r"%(?:L?\d{1,2}|n)")


def messages(path):
    for context in ET.parse(path).getroot().iter("context"):
        name = context.findtext("name")
        for message in context.iter("message"):
            yield name, message


def placeholders(text):
    return sorted(set(placeholder.findall(text or "")))


failures = 0
for path in committed:
    known = {(name, m.findtext("source"), m.findtext("comment"))
             for name, m in messages(path)}
    updated = os.path.join(tmp, os.path.basename(path))
    problems = []
    for name, m in messages(updated):
        source = m.findtext("source")
        key = (name, source, m.findtext("comment"))
        translation = m.find("translation")
        where = f"{name}: {source!r}"
        if key not in known:
            problems.append(f"new, not in the committed file: {where}")
            continue
        if translation is None or translation.get("type") == "unfinished":
            problems.append(f"unfinished: {where}")
            continue
        forms = ([f.text for f in translation.iter("numerusform")]
                 if m.get("numerus") == "yes" else [translation.text])
        if any(not (f or "").strip() for f in forms):
            problems.append(f"empty translation: {where}")
            continue
        expected = placeholders(source)
        for form in forms:
            got = placeholders(form)
            if got != expected:
                problems.append(f"placeholders {got} instead of {expected}: {where} -> {form!r}")
    name = os.path.basename(path)
    if problems:
        failures += len(problems)
        print(f"{name}: {len(problems)} problem(s)")
        for p in problems:
            print(f"  {p}")
    else:
        print(f"{name}: every message translated")

if failures:
    print(f"FAIL: {failures} untranslated or inconsistent message(s); run "
          "'cmake --build <build> --target update_translations', translate them and commit "
          "the .ts files", file=sys.stderr)
    sys.exit(1)
PY
