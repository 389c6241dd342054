#!/usr/bin/env python3
"""Every Text and Label of the console shows plain text (textFormat: Text.PlainText), and
every TextArea and TextEdit too (TextEdit.PlainText).

Qt's default, AutoText, reads a string that looks like markup as styled text: a name from the
server (a client's, a customer's, a user's) holding <img src="http://..."> makes the console
fetch that image, and Qt 6.4 crashes on one inside a control's label. The console has no
intended markup, so every Text and Label says PlainText, and a ComboBox fed from the server
draws its rows with such a Label (see TokensPage.qml). Prints each offender; exit 1 if any.
"""
import pathlib
import re
import sys

root = pathlib.Path(__file__).resolve().parents[2] / 'qml'
bad = []
for path in sorted(root.rglob('*.qml')):
    lines = path.read_text().split('\n')
    for i, line in enumerate(lines):
        if re.match(r'^\s*(?:[\w.]+\s*:\s*)?(?:Text|Label)\s*\{\s*$', line):
            depth, j, plain = 1, i + 1, False
            while j < len(lines) and depth > 0:
                if depth == 1 and re.match(r'^\s*textFormat\s*:\s*Text\.PlainText\b', lines[j]):
                    plain = True
                depth += lines[j].count('{') - lines[j].count('}')
                j += 1
            if not plain:
                bad.append(f'{path.relative_to(root.parent)}:{i + 1}')
        elif re.match(r'^\s*(?:[\w.]+\s*:\s*)?(?:Text|Label)\s*\{.*\}\s*$', line):
            if 'textFormat: Text.PlainText' not in line:
                bad.append(f'{path.relative_to(root.parent)}:{i + 1}')
for path in sorted(root.rglob('*.qml')):
    lines = path.read_text().split('\n')
    for i, line in enumerate(lines):
        if re.match(r'^\s*(?:[\w.]+\s*:\s*)?(?:TextArea|TextEdit)\s*\{\s*$', line):
            block = '\n'.join(lines[i + 1:i + 40])
            if not re.search(r'^\s*textFormat\s*:\s*TextEdit\.PlainText\b', block, re.M):
                bad.append(f'{path.relative_to(root.parent)}:{i + 1}')
for b in bad:
    print(f'{b}: shows text that is not declared plain (textFormat: Text.PlainText / TextEdit.PlainText)')
sys.exit(1 if bad else 0)
