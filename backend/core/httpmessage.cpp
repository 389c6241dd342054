#include "core/httpmessage.h"

#include <QJsonObject>

namespace Gatehouse::Core {

PeerIdentity PeerIdentity::at(qint64 nowMs) const
{
    if (state != State::Verified || notAfterMs <= 0 || nowMs <= notAfterMs)
        return *this;
    PeerIdentity expired;
    expired.state = State::Invalid;
    expired.invalidReason = QStringLiteral("certificate has expired");
    return expired;
}

QString PeerIdentity::stateName() const
{
    switch (state) {
    case State::None:
        return QStringLiteral("none");
    case State::Verified:
        return QStringLiteral("verified");
    case State::Invalid:
        return QStringLiteral("invalid");
    }
    return {};
}

QByteArray headerValue(const HeaderList &headers, const QByteArray &lowerName)
{
    for (const auto &h : headers)
        if (h.first == lowerName)
            return h.second;
    return {};
}

QByteArray HttpRequest::header(const QByteArray &lowerName) const
{
    return headerValue(headers, lowerName);
}

bool HttpRequest::hasHeader(const QByteArray &lowerName) const
{
    for (const auto &h : headers)
        if (h.first == lowerName)
            return true;
    return false;
}

QString HttpRequest::bearerToken() const
{
    const QByteArray v = header("authorization").trimmed();
    if (v.size() > 7 && v.left(7).compare("bearer ", Qt::CaseInsensitive) == 0)
        return QString::fromLatin1(v.mid(7).trimmed());
    return {};
}

HttpResponse &HttpResponse::setHeader(const QByteArray &name, const QByteArray &value)
{
    for (auto &h : headers) {
        if (h.first.compare(name, Qt::CaseInsensitive) == 0) {
            h.second = value;
            return *this;
        }
    }
    headers.append(qMakePair(name, value));
    return *this;
}

QByteArray HttpResponse::header(const QByteArray &name) const
{
    for (const auto &h : headers)
        if (h.first.compare(name, Qt::CaseInsensitive) == 0)
            return h.second;
    return {};
}

HttpResponse HttpResponse::json(int status, const QJsonDocument &doc)
{
    HttpResponse r;
    r.status = status;
    r.body = doc.toJson(QJsonDocument::Compact);
    r.headers.append(qMakePair(QByteArray("Content-Type"), QByteArray("application/json")));
    return r;
}

HttpResponse HttpResponse::json(int status, const QJsonObject &obj)
{
    return json(status, QJsonDocument(obj));
}

HttpResponse HttpResponse::text(int status, const QByteArray &text, const QByteArray &contentType)
{
    HttpResponse r;
    r.status = status;
    r.body = text;
    r.headers.append(qMakePair(QByteArray("Content-Type"), contentType));
    return r;
}

HttpResponse HttpResponse::error(int status, const QString &code, const QString &message)
{
    return json(status,
                QJsonObject{{QStringLiteral("error"), code}, {QStringLiteral("message"), message}});
}

QByteArray reasonPhrase(int status)
{
    switch (status) {
    case 100:
        return "Continue";
    case 101:
        return "Switching Protocols";
    case 200:
        return "OK";
    case 201:
        return "Created";
    case 202:
        return "Accepted";
    case 204:
        return "No Content";
    case 301:
        return "Moved Permanently";
    case 302:
        return "Found";
    case 303:
        return "See Other";
    case 304:
        return "Not Modified";
    case 307:
        return "Temporary Redirect";
    case 400:
        return "Bad Request";
    case 401:
        return "Unauthorized";
    case 403:
        return "Forbidden";
    case 404:
        return "Not Found";
    case 405:
        return "Method Not Allowed";
    case 406:
        return "Not Acceptable";
    case 408:
        return "Request Timeout";
    case 409:
        return "Conflict";
    case 410:
        return "Gone";
    case 411:
        return "Length Required";
    case 412:
        return "Precondition Failed";
    case 413:
        return "Content Too Large";
    case 415:
        return "Unsupported Media Type";
    case 422:
        return "Unprocessable Entity";
    case 429:
        return "Too Many Requests";
    case 431:
        return "Request Header Fields Too Large";
    case 500:
        return "Internal Server Error";
    case 501:
        return "Not Implemented";
    case 502:
        return "Bad Gateway";
    case 503:
        return "Service Unavailable";
    case 504:
        return "Gateway Timeout";
    case 505:
        return "HTTP Version Not Supported";
    default:
        return "Status";
    }
}

} // namespace Gatehouse::Core
