#pragma once

#include <QByteArray>
#include <QString>

namespace Gatehouse::Core {

// What the admin listener answers at /admin-proof?nonce=N: base64url of HMAC-SHA256 keyed with
// the root admin token. `gatehouse admin` checks it before it sends the token it read from the
// data directory to the port that directory's ports.json names, which may belong to another
// program once that Gatehouse is gone (killed, crashed: ports.json stays). The answer for one
// nonce tells nothing of the token.
QByteArray adminProof(const QString &rootToken, const QByteArray &nonce);

// A nonce the server answers: 22 to 128 characters of base64url.
bool isAdminProofNonce(const QByteArray &nonce);

} // namespace Gatehouse::Core
