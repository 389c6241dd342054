#!/usr/bin/python3
"""Verifies an OpenID Connect id_token with Debian's python3-jwcrypto, as a relying party
written in another language would: the signature against the JWKS named by the issuer's
discovery document, then iss, aud, exp and nonce.

    verify_id_token.py ISSUER CLIENT_ID NONCE < id_token

Prints the claims as JSON and exits 0; on any failure prints the reason to stderr and exits 1
(2 for a usage error). Called by authcode.test.mjs.
"""

import json
import sys
import urllib.request

from jwcrypto import jwk, jwt


def fetch_json(url):
    with urllib.request.urlopen(url, timeout=10) as resp:
        if resp.status != 200:
            raise ValueError(f"{url}: HTTP {resp.status}")
        return json.loads(resp.read().decode("utf-8"))


def verify(issuer, client_id, nonce, token):
    discovery = fetch_json(issuer + "/.well-known/openid-configuration")
    if discovery.get("issuer") != issuer:
        raise ValueError(f"discovery names issuer {discovery.get('issuer')!r}, not {issuer!r}")
    keys = jwk.JWKSet.from_json(json.dumps(fetch_json(discovery["jwks_uri"])))
    # check_claims: iss and aud compared, exp against the clock (60 s leeway), nonce compared;
    # each must be present.
    checked = jwt.JWT(jwt=token, key=keys, algs=["RS256"],
                      check_claims={"iss": issuer, "aud": client_id, "exp": None,
                                    "nonce": nonce})
    claims = json.loads(checked.claims)
    if not isinstance(claims.get("iat"), int) or not isinstance(claims.get("sub"), str):
        raise ValueError("iat (number) and sub (string) are required")
    return claims


def main(argv):
    if len(argv) != 4:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    issuer, client_id, nonce = argv[1:]
    token = sys.stdin.read().strip()
    try:
        claims = verify(issuer, client_id, nonce, token)
    except Exception as e:  # every failure is a verification failure for the caller
        print(f"id_token rejected: {type(e).__name__}: {e}", file=sys.stderr)
        return 1
    print(json.dumps(claims, sort_keys=True))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
