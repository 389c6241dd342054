#!/usr/bin/env python3
"""Every Text and Label of the console shows plain text (textFormat: Text.PlainText), and
every TextArea and TextEdit too (TextEdit.PlainText).

Qt's default, AutoText, reads a string that looks like markup as styled text: a name from the
server (a client's, a customer's, a user's) holding <img src="http://..."> makes the console
fetch that image, and Qt 6.4 crashes on one inside a control's label. The console has no
intended markup, so every label says PlainText, and a ComboBox fed from the server draws its
rows with PlainComboRow. Prints each offender and exits 1 if any; exits 2 if the scanner
itself misses a known offender (its self-check below).
"""
import pathlib
import re
import sys

LABEL = re.compile(r'^\s*(?:[\w.]+\s*:\s*)?(?:Text|Label)\s*\{\s*$')
LABEL_ONE_LINE = re.compile(r'^\s*(?:[\w.]+\s*:\s*)?(?:Text|Label)\s*\{.*\}\s*$')
EDIT = re.compile(r'^\s*(?:[\w.]+\s*:\s*)?(?:TextArea|TextEdit)\s*\{\s*$')


def offenders(text):
    """Line numbers (1-based) of the labels and edits in `text` not declared plain."""
    lines = text.split('\n')
    bad = []
    for i, line in enumerate(lines):
        if LABEL.match(line) or EDIT.match(line):
            wanted = r'^\s*textFormat\s*:\s*' + (r'Text' if LABEL.match(line) else r'TextEdit') + r'\.PlainText\b'
            depth, j, plain = 1, i + 1, False
            while j < len(lines) and depth > 0:
                if depth == 1 and re.match(wanted, lines[j]):
                    plain = True
                depth += lines[j].count('{') - lines[j].count('}')
                j += 1
            if not plain:
                bad.append(i + 1)
        elif LABEL_ONE_LINE.match(line) and 'textFormat: Text.PlainText' not in line:
            bad.append(i + 1)
    return bad


def self_check():
    samples = {
        'Label {\n    text: name\n}\n': [1],
        'Label {\n    textFormat: Text.PlainText\n    text: name\n}\n': [],
        'Item {\n    Text {\n        Rectangle { textFormat: Text.PlainText }\n        text: n\n    }\n}\n': [2],
        'Label { text: qsTr("x") }\n': [1],
        'Label { textFormat: Text.PlainText; text: qsTr("x") }\n': [],
        'contentItem: Label {\n    text: row.label\n}\n': [1],
        'TextArea {\n    textFormat: Text.PlainText\n}\n': [1],
        'TextEdit {\n    textFormat: TextEdit.PlainText\n}\n': [],
    }
    for text, expected in samples.items():
        if offenders(text) != expected:
            print(f'qml-plaintext.py: the scanner is broken: {text!r} gave {offenders(text)}, not {expected}')
            sys.exit(2)


self_check()
root = pathlib.Path(__file__).resolve().parents[2] / 'qml'
bad = [f'{path.relative_to(root.parent)}:{n}'
       for path in sorted(root.rglob('*.qml')) for n in offenders(path.read_text())]
for b in bad:
    print(f'{b}: shows text that is not declared plain (textFormat: Text.PlainText / TextEdit.PlainText)')
sys.exit(1 if bad else 0)
