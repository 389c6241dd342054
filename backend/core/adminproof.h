#pragma once

#include <QByteArray>
#include <QHostAddress>
#include <QJsonObject>
#include <QString>

namespace Gatehouse::Core {

// What the admin listener answers at /admin-proof?nonce=N: base64url of HMAC-SHA256, keyed
// with the root admin token, of the nonce and of the endpoint the request reached (the local
// address and port of its connection, as the server's socket has them). `gatehouse admin`
// checks it against the address and port it connected to before it sends the token it read
// from the data directory: the port a ports.json names may belong to another program once
// that Gatehouse is gone (killed, crashed: ports.json stays), and a program there that relays
// the nonce to another Gatehouse with the same root token gets a proof for that one's
// endpoint, which the CLI refuses. The answer for one nonce tells nothing of the token.
QByteArray adminProof(const QString &rootToken, const QByteArray &nonce, const QString &endpoint);

// The proof of any admin token's listener (root or scoped), GET /admin-proof?nonce=N&token=ID:
// HMAC-SHA256 keyed with the token's proof key (adminTokenProofKey: its holder computes it
// from the token; the server keeps a scoped token's sealed with the database key, never
// derivable from the stored digest, or a reader of the database could prove), of the nonce
// and the endpoint. Both
// clients (the CLI, the console) ask for it before a token goes over plain http to a
// listener on this machine, whoever's port it is: any local program may hold the port of a
// Gatehouse that stopped (a restart, a dropped SSH tunnel), or "localhost"'s other address.
// ID (adminProofTokenId, from the token's digest, adminTokenDigest) names the token.
// The answer names the endpoint the proof is for: the one connected to, or, behind a reverse
// proxy on this machine (the deploy recipe's nginx), the Gatehouse's own.
QByteArray adminTokenDigest(const QString &token);   // hex SHA-256 (the stored hash)
QByteArray adminTokenProofKey(const QString &token); // hex SHA-256 of the labelled token
QString adminProofTokenId(const QByteArray &digest);
QByteArray adminTokenProof(const QByteArray &proofKey, const QByteArray &nonce,
                           const QString &endpoint);
// Whether /admin-proof's answer (its JSON, with token=ID) proves the token to a client that
// connected to `connected` (adminProofEndpoint): the proof is the token's, for the endpoint
// it names, and that is the one connected to, or (`viaProxy`, a URL the user gave) another
// port on a loopback address: a reverse proxy on this machine in between. Never the same port
// on another address: "localhost" names 127.0.0.1 and ::1, and a program on the one the
// Gatehouse does not hold could relay to the one it does. A program relaying to a Gatehouse
// on another port of this machine still passes with `viaProxy`: where that matters,
// --admin-tls.
bool adminTokenProved(const QJsonObject &answer, const QByteArray &proofKey,
                      const QByteArray &nonce, const QString &connected, bool viaProxy);

// The endpoint as a proof names it: "127.0.0.1:8081", "[::1]:8081" (an IPv4-mapped IPv6
// address as IPv4, no IPv6 scope), the same from the server's and the client's side.
QString adminProofEndpoint(const QHostAddress &address, quint16 port);

// The answer of a Gatehouse before the proof named its endpoint (the nonce alone): recognised
// only to tell an operator why such a server is refused.
QByteArray legacyAdminProof(const QString &rootToken, const QByteArray &nonce);

// A nonce the server answers: 22 to 128 characters of base64url.
bool isAdminProofNonce(const QByteArray &nonce);

} // namespace Gatehouse::Core
