#pragma once

#include "adminclient.h"

#include <QJsonObject>
#include <QObject>
#include <QPointer>
#include <QTimer>
#include <QVariantList>

namespace Gatehouse::Console {

// The JWT decoder: any compact JWT goes to POST /admin/v1/jwt/inspect, which decodes it and
// checks alg, kid, signature (this server's JWKS, or a pasted JWKS / JWK / PEM), exp, nbf,
// iat, iss and aud. Shows header and payload as indented JSON, the time claims in local
// time, and an expiry countdown that moves every second. Input changes inspect again after
// a short pause (decode on paste).
class JwtInspector : public QObject
{
    Q_OBJECT
    Q_PROPERTY(QString token READ token WRITE setToken NOTIFY inputChanged)
    // A pasted JWK Set or JWK (JSON), or a PEM public key or certificate; "" for this
    // server's JWKS.
    Q_PROPERTY(QString key READ key WRITE setKey NOTIFY inputChanged)
    Q_PROPERTY(QString audience READ audience WRITE setAudience NOTIFY inputChanged)
    // "" checks this server's issuer (when no key is pasted; else the issuer is not checked).
    Q_PROPERTY(QString issuer READ issuer WRITE setIssuer NOTIFY inputChanged)
    Q_PROPERTY(QString keyKind READ keyKind NOTIFY inputChanged)   // "", jwks, pem, invalid
    Q_PROPERTY(QString keyError READ keyError NOTIFY inputChanged) // "" or why the key is unusable

    Q_PROPERTY(bool busy READ busy NOTIFY busyChanged)
    // The API call failed (its message, untranslated); "" otherwise.
    Q_PROPERTY(QString error READ error NOTIFY resultChanged)
    // A verdict is there (also for "Not a JWT").
    Q_PROPERTY(bool inspected READ inspected NOTIFY resultChanged)
    // The token could be decoded: header and payload are there.
    Q_PROPERTY(bool decoded READ decoded NOTIFY resultChanged)
    Q_PROPERTY(bool valid READ valid NOTIFY resultChanged)
    // The server's verdict sentence ("Valid: every check passed.", "Invalid: ...").
    Q_PROPERTY(QString verdict READ verdict NOTIFY resultChanged)
    Q_PROPERTY(QString keySourceText READ keySourceText NOTIFY resultChanged)
    Q_PROPERTY(QString headerText READ headerText NOTIFY resultChanged)
    Q_PROPERTY(QString payloadText READ payloadText NOTIFY resultChanged)
    // [{name, status (pass|fail|skip), statusText, detail}] in the server's order.
    Q_PROPERTY(QVariantList checks READ checks NOTIFY resultChanged)
    // [{claim, label, localText, relativeText}] for exp, nbf, iat, auth_time when present.
    Q_PROPERTY(QVariantList timeClaims READ timeClaims NOTIFY clockChanged)
    Q_PROPERTY(bool hasExpiry READ hasExpiry NOTIFY resultChanged)
    Q_PROPERTY(bool expired READ expired NOTIFY clockChanged)
    // "expires in 59:12", "expired 3 min ago"; "" without an exp claim.
    Q_PROPERTY(QString countdownText READ countdownText NOTIFY clockChanged)
    // The decoded payload as an object (for comparing with a token preview).
    Q_PROPERTY(QVariantMap payload READ payload NOTIFY resultChanged)
    // Timestamps that look like milliseconds, in the server's words.
    Q_PROPERTY(QStringList warnings READ warnings NOTIFY resultChanged)
    // The answer's "server" part: what this server knows about the token.
    Q_PROPERTY(bool hasServer READ hasServer NOTIFY resultChanged)
    Q_PROPERTY(bool issuedHere READ issuedHere NOTIFY resultChanged)
    // "active", "next", "retired" or "unknown"; with the server's sentence.
    Q_PROPERTY(QString keyState READ keyState NOTIFY resultChanged)
    Q_PROPERTY(QString keyText READ keyText NOTIFY resultChanged)
    // "active", "revoked", "expired" or "notStored"; the text says it in the console's words.
    Q_PROPERTY(QString storedState READ storedState NOTIFY resultChanged)
    Q_PROPERTY(QString storedText READ storedText NOTIFY resultChanged)
    Q_PROPERTY(bool revocable READ revocable NOTIFY resultChanged)
    // "Billing (finY…) exists", "client finY… no longer exists", "" when the token names none.
    Q_PROPERTY(QString clientText READ clientText NOTIFY resultChanged)
    Q_PROPERTY(bool clientExists READ clientExists NOTIFY resultChanged)
    Q_PROPERTY(QString userText READ userText NOTIFY resultChanged)
    Q_PROPERTY(bool userExists READ userExists NOTIFY resultChanged)
    // Revoke's failure (the server's message); "" otherwise.
    Q_PROPERTY(QString revokeError READ revokeError NOTIFY resultChanged)

public:
    explicit JwtInspector(AdminClient *client, QObject *parent = nullptr);

    // The countdown for an exp claim at now (both in seconds since the epoch).
    static QString countdown(qint64 exp, qint64 now);
    // "in 5 min", "3 h ago", "now".
    static QString relative(qint64 at, qint64 now);

    QString token() const { return m_token; }
    void setToken(const QString &token);
    QString key() const { return m_key; }
    void setKey(const QString &key);
    QString audience() const { return m_audience; }
    void setAudience(const QString &audience);
    QString issuer() const { return m_issuer; }
    void setIssuer(const QString &issuer);
    QString keyKind() const;
    QString keyError() const;

    bool busy() const { return m_busy; }
    QString error() const { return m_error; }
    bool inspected() const { return !m_result.isEmpty(); }
    bool decoded() const;
    bool valid() const;
    QString verdict() const;
    QString keySourceText() const;
    QString headerText() const;
    QString payloadText() const;
    QVariantList checks() const;
    QVariantList timeClaims() const;
    bool hasExpiry() const;
    bool expired() const;
    QString countdownText() const;
    QVariantMap payload() const;
    QStringList warnings() const;
    bool hasServer() const;
    bool issuedHere() const;
    QString keyState() const;
    QString keyText() const;
    QString storedState() const;
    QString storedText() const;
    bool revocable() const;
    QString clientText() const;
    bool clientExists() const;
    QString userText() const;
    bool userExists() const;
    QString revokeError() const { return m_revokeError; }

    // DELETE /tokens/{id} for the stored token, then inspects again.
    Q_INVOKABLE void revoke();

    // Inspects the token now (the input's pause timer does it too).
    Q_INVOKABLE void inspect();
    // A token to inspect at once (a minted one).
    Q_INVOKABLE void inspectToken(const QString &token);
    // Empties input and result.
    Q_INVOKABLE void clear();

    // The body inspect() posts.
    QJsonObject requestBody() const;

    // The language changed: every text did (they are made when read).
    void retranslate();

signals:
    void inputChanged();
    void busyChanged();
    void resultChanged();
    void clockChanged(); // every second while there are time claims to show
    void revoked();      // Revoke's call ended (the token lists read again)

private:
    void inputEdited();
    void setResult(const QJsonObject &result, const QString &error);
    void setBusy(bool busy);
    qint64 claim(const char *name, bool *present) const;

    QPointer<AdminClient> m_client;
    QString m_token;
    QString m_key;
    QString m_audience;
    QString m_issuer;
    QTimer m_pause; // decode on paste: after typing stops
    QTimer m_clock;
    quint64 m_generation = 0; // of the newest call; older answers are dropped
    bool m_busy = false;
    QString m_error;
    QJsonObject m_result;
    QString m_revokeError;
};

} // namespace Gatehouse::Console
