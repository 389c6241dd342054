#pragma once

#include <QByteArray>
#include <QHostAddress>
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

// The endpoint as a proof names it: "127.0.0.1:8081", "[::1]:8081" (an IPv4-mapped IPv6
// address as IPv4, no IPv6 scope), the same from the server's and the client's side.
QString adminProofEndpoint(const QHostAddress &address, quint16 port);

// The answer of a Gatehouse before the proof named its endpoint (the nonce alone): recognised
// only to tell an operator why such a server is refused.
QByteArray legacyAdminProof(const QString &rootToken, const QByteArray &nonce);

// A nonce the server answers: 22 to 128 characters of base64url.
bool isAdminProofNonce(const QByteArray &nonce);

} // namespace Gatehouse::Core
