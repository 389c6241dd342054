#pragma once

#include "core/result.h"

#include <QByteArray>
#include <QList>
#include <QString>

namespace Gatehouse::Webhooks {

// Standard Webhooks v1 symmetric signatures: HMAC-SHA256 over "id.timestamp.body" with
// the base64-decoded bytes of a "whsec_" secret, sent as "v1,<base64>"; several
// signatures (a rotation) are separated by spaces.
class Signer
{
public:
    static constexpr int SecretBytes = 32; // the spec asks for at least 24

    static QString generateSecret();
    static Core::Result<QByteArray> decodeSecret(const QString &secret);
    static QByteArray sign(const QByteArray &key, const QByteArray &msgId, qint64 timestamp,
                           const QByteArray &body);
    static QByteArray signatureHeader(const QList<QByteArray> &keys, const QByteArray &msgId,
                                      qint64 timestamp, const QByteArray &body);
    // The header as an attempt's record shows it: each entry's version and the first 8
    // characters of its signature ("v1,AbCdEfGh…"), enough to tell entries and rotations apart.
    // The whole signature would let whoever reads deliveries (an orders:read admin token) send
    // the signed message again, to this endpoint or another of the customer's, within the
    // receivers' tolerance: reading would become sending.
    static QByteArray redactedSignatureHeader(const QByteArray &header);
    // True if any v1 entry of the header matches any key (compared in constant time).
    static bool verify(const QList<QByteArray> &keys, const QByteArray &header,
                       const QByteArray &msgId, qint64 timestamp, const QByteArray &body);
    // A short, non-secret fingerprint to tell secrets apart in the console.
    static QString fingerprint(const QString &secret);
};

} // namespace Gatehouse::Webhooks
