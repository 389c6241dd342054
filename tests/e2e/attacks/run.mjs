// The attack catalogue's single entry point: every *.attacks.mjs module of this directory (a
// fixed, sorted list, so a new file is picked up without touching this one) runs in this one
// node process, in file order; each module starts and stops its own backend(s). At the end one
// line goes to stdout: "N attacks refused" (N: the attacks that passed). A failed attack makes
// the process exit non-zero (node:test sets the exit code).
//
//   GATEHOUSE_BINARY=... node --test --test-reporter=spec attacks/run.mjs
//   GATEHOUSE_ATTACKS=oauth,cluster ...   only the modules whose file name starts with one of these
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

import { describe } from 'node:test';

import { attack, countLine, laterAttacks } from './lib/attack.mjs';

const here = new URL('./', import.meta.url);
const only = (process.env.GATEHOUSE_ATTACKS ?? '').split(',').map((s) => s.trim()).filter(Boolean);
const modules = readdirSync(fileURLToPath(here))
    .filter((f) => f.endsWith('.attacks.mjs'))
    .filter((f) => only.length === 0 || only.some((prefix) => f.startsWith(prefix)))
    .sort();
if (modules.length === 0)
    throw new Error(`no *.attacks.mjs module in ${fileURLToPath(here)}` +
                    (only.length ? ` matching GATEHOUSE_ATTACKS=${only.join(',')}` : ''));

// After the last test and hook: under `node --test` the runner prints its summary after this.
process.on('exit', () => {
    process.stdout.write(`${countLine()}\n`);
});

for (const f of modules)
    await import(new URL(f, here));

// What the modules left to check once its time came (later()), after all of them.
if (laterAttacks().length > 0)
    describe('checks whose time came later', () => {
        for (const { title, fn } of laterAttacks())
            attack(title, fn);
    });
