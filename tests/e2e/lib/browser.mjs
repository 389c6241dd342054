// A browser over plain HTTP for the login, consent and device pages: a cookie jar, manual
// redirects, and just enough HTML parsing to read the pages' forms and elements. Shared by
// authcode.test.mjs and the attack catalogue (attacks/).
//
//   const ua = new UserAgent();
//   const r = await ua.fetch(url);                       // {status, headers, text, setCookies, location}
//   const f = form(r.text, 'login-form');                // {action, method, fields (hidden inputs), html}
//   await ua.fetch(new URL(f.action, issuer), { method: 'POST', form: { ...f.fields, username, password } });

import assert from 'node:assert/strict';

// A user agent: a cookie jar and manual redirects, the way a browser keeps them.

export function parseSetCookie(line) {
    const [pair, ...rest] = line.split(';');
    const eq = pair.indexOf('=');
    const attrs = {};
    for (const a of rest) {
        const i = a.indexOf('=');
        const key = (i < 0 ? a : a.slice(0, i)).trim().toLowerCase();
        attrs[key] = i < 0 ? true : a.slice(i + 1).trim();
    }
    return { name: pair.slice(0, eq).trim(), value: pair.slice(eq + 1).trim(), attrs };
}

export class UserAgent {
    cookies = new Map(); // name -> {value, path, secure}

    // behindTls: send Secure cookies over http too, as a browser talking to a TLS-terminating
    // proxy in front of the listener would.
    constructor({ behindTls = false } = {}) {
        this.behindTls = behindTls;
    }

    cookieHeader(url) {
        const out = [];
        for (const [name, c] of this.cookies) {
            if (url.pathname === c.path || url.pathname.startsWith(c.path.endsWith('/') ? c.path : `${c.path}/`))
                if (!c.secure || url.protocol === 'https:' || this.behindTls)
                    out.push(`${name}=${c.value}`);
        }
        return out.join('; ');
    }

    store(c) {
        const maxAge = c.attrs['max-age'];
        const expires = c.attrs.expires ? Date.parse(c.attrs.expires) : NaN;
        if ((maxAge !== undefined && Number(maxAge) <= 0) || expires < Date.now())
            this.cookies.delete(c.name);
        else
            this.cookies.set(c.name, { value: c.value, path: c.attrs.path ?? '/', secure: Boolean(c.attrs.secure) });
    }

    // One request. form: an object or [name, value] pairs, sent urlencoded.
    // Resolves to {status, headers, text, setCookies, location (absolute URL or null)}.
    async fetch(url, { method = 'GET', form, headers = {} } = {}) {
        const u = new URL(url);
        const h = { ...headers };
        const cookie = this.cookieHeader(u);
        if (cookie)
            h.Cookie = cookie;
        let body;
        if (form !== undefined) {
            body = new URLSearchParams(form).toString();
            h['Content-Type'] = 'application/x-www-form-urlencoded';
        }
        const res = await fetch(u, { method, headers: h, body, redirect: 'manual' });
        const setCookies = res.headers.getSetCookie().map(parseSetCookie);
        for (const c of setCookies) this.store(c);
        const location = res.headers.get('location');
        return { status: res.status, headers: res.headers, text: await res.text(), setCookies,
                 location: location === null ? null : new URL(location, u), rawLocation: location };
    }
}

// Just enough HTML: elements by id, their attributes and text, a form's hidden fields.

function decodeEntities(s) {
    return s.replace(/&(#x[0-9a-f]+|#[0-9]+|amp|lt|gt|quot|apos);/gi, (_, e) => {
        const named = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" }[e.toLowerCase()];
        if (named)
            return named;
        return String.fromCodePoint(e[1].toLowerCase() === 'x' ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10));
    });
}

function parseAttrs(s) {
    const attrs = {};
    for (const m of (s ?? '').matchAll(/([^\s"'=<>/]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+)))?/g))
        attrs[m[1].toLowerCase()] = decodeEntities(m[2] ?? m[3] ?? m[4] ?? '');
    return attrs;
}

// Every start tag: {tag, attrs, start, end (index after '>')}.
export function tags(html) {
    return [...html.matchAll(/<([a-zA-Z][a-zA-Z0-9]*)(\s[^>]*)?>/g)].map((m) => ({
        tag: m[1].toLowerCase(), attrs: parseAttrs(m[2]), start: m.index, end: m.index + m[0].length }));
}

export const textOf = (inner) => decodeEntities(inner.replace(/<[^>]*>/g, '')).replace(/\s+/g, ' ').trim();

function innerOf(html, t) {
    const close = html.toLowerCase().indexOf(`</${t.tag}`, t.end);
    return close < 0 ? '' : html.slice(t.end, close);
}

// The element with this id (or the first matching `pred`): {tag, attrs, text}, or undefined.
export function element(html, idOrPred) {
    const pred = typeof idOrPred === 'string' ? (t) => t.attrs.id === idOrPred : idOrPred;
    const t = tags(html).find(pred);
    return t && { tag: t.tag, attrs: t.attrs, text: textOf(innerOf(html, t)) };
}

// The form with this id: {action, method, fields (hidden inputs by name)}.
export function form(html, id) {
    const f = tags(html).find((t) => t.tag === 'form' && t.attrs.id === id);
    assert.ok(f, `a <form id="${id}"> in the page:\n${html}`);
    const inner = innerOf(html, f);
    const fields = {};
    for (const t of tags(inner))
        if (t.tag === 'input' && t.attrs.type === 'hidden' && t.attrs.name)
            fields[t.attrs.name] = t.attrs.value ?? '';
    return { action: f.attrs.action, method: (f.attrs.method ?? 'get').toLowerCase(), fields, html: inner };
}

export function assertErrorPage(r, what, code = 'invalid_request') {
    assert.equal(r.status, 400, `${what}: status (${r.text.slice(0, 400)})`);
    assert.match(r.headers.get('content-type') ?? '', /^text\/html/, `${what}: an HTML page`);
    assert.equal(r.location, null, `${what}: no redirect (Location ${r.rawLocation})`);
    const shown = element(r.text, 'error-code');
    assert.ok(shown, `${what}: <p id="error-code"> in ${r.text}`);
    if (code !== undefined)
        assert.equal(shown.text, code, `${what}: error code shown`);
    else
        assert.ok(shown.text, `${what}: an error code shown`);
    assert.ok(element(r.text, 'error-description')?.text, `${what}: <p id="error-description"> not empty`);
}

// Every URL-carrying attribute of the page (href, src, action, formaction, and the content of
// a <meta http-equiv="refresh">): where a page could send the browser.
export function urlsIn(html) {
    const out = [];
    for (const t of tags(html)) {
        for (const a of ['href', 'src', 'action', 'formaction'])
            if (t.attrs[a] !== undefined)
                out.push(t.attrs[a]);
        if (t.tag === 'meta' && String(t.attrs['http-equiv'] ?? '').toLowerCase() === 'refresh')
            out.push(t.attrs.content ?? '');
    }
    return out;
}
