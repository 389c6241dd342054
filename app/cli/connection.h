#pragma once

#include <QByteArray>
#include <QHostAddress>
#include <QJsonDocument>
#include <QJsonObject>
#include <QList>
#include <QProcessEnvironment>
#include <QSslCertificate>
#include <QString>
#include <QUrl>
#include <QUrlQuery>

#include <optional>
#include <utility>
#include <variant>

class QCommandLineParser;
class QProcessEnvironment;
class QTextStream;

namespace Gatehouse::Cli {

// One call of the admin API.
struct Request
{
    Request(QByteArray method, QString path, QByteArray body = {})
        : method(std::move(method)), path(std::move(path)), body(std::move(body))
    {}
    Request(QByteArray method, QString path, const QJsonObject &body)
        : Request(std::move(method), std::move(path), QJsonDocument(body).toJson())
    {}

    QByteArray method;
    QString path;
    QUrlQuery query;
    QByteArray body; // JSON; a merge patch for PATCH
};

struct Reply
{
    int status = 0; // 0: no HTTP answer at all (networkError says why)
    QByteArray body;
    QString networkError;
    bool refused = false; // no connection was made (refused): another address may answer
};

// The admin API of one running backend: where it answers, the token to present, and which
// certificate to trust over HTTPS (--admin-tls).
struct Connection
{
    QUrl url;
    QString token;
    QString source; // the ports.json the URL came from; empty when it was given
    // The data directory's CA when the URL came from its ports.json, and the certificate's
    // SHA-256 fingerprint given with --admin-fingerprint.
    QList<QSslCertificate> caCertificates;
    QString fingerprint;
    // When set, every request connects to this address (url's port, no proxy; over https the
    // certificate is still checked for url's host): the one whose listener proved that it
    // holds the data directory's root token (/admin-proof), so that the token goes nowhere
    // else, whatever the host name resolves to next.
    QHostAddress address;

    // Blocks (a local event loop) until the answer, or the 10 s transfer timeout. Redirects are
    // not followed: a 3xx is a network error (the token is sent to the URL given only).
    Reply call(const Request &request) const;
    Reply send(const Request &request, bool withToken) const; // call(), with or without token
};

// The first line of an admin token file (--admin-token-file), trimmed; nullopt with *error
// set when it cannot be read or holds nothing.
std::optional<QString> readTokenFile(const QString &path, QString *error);

// The admin token the caller named, first found wins: --admin-token (flagToken),
// --admin-token-file (flagFile), GATEHOUSE_ADMIN_TOKEN, GATEHOUSE_ADMIN_TOKEN_FILE. Empty when
// none names one; nullopt with *error set when the file named cannot be read (readTokenFile).
std::optional<QString> namedToken(const QString &flagToken, const QString &flagFile,
                                  const QProcessEnvironment &env, QString *error);

// The URL from --admin-url, GATEHOUSE_ADMIN_URL or <data-dir>/ports.json; the token from
// --admin-token, --admin-token-file, GATEHOUSE_ADMIN_TOKEN, GATEHOUSE_ADMIN_TOKEN_FILE or
// <data-dir>/admin-token (--data-dir and --config as
// the backend resolves them). The data directory's root token, sent when no token is named, goes
// only to a listener that proves it holds it at the address and port connected to
// (/admin-proof; Connection::address is then that address). Otherwise the exit code, the reason
// printed to err: 1 when there is nothing to connect to (or no proof), 2 for a wrong option.
std::variant<Connection, int> openConnection(const QCommandLineParser &options,
                                             const QProcessEnvironment &env, QTextStream &err);

} // namespace Gatehouse::Cli
