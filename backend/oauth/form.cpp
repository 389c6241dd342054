#include "oauth/form.h"

#include <QRegularExpression>
#include <QUrl>

namespace Gatehouse::OAuth {

QString formDecode(const QByteArray &v)
{
    QByteArray b = v;
    b.replace('+', ' ');
    return QUrl::fromPercentEncoding(b);
}

QString repeatedParameter(const QString &name)
{
    static const QRegularExpression plain(QStringLiteral("^[A-Za-z0-9_.:-]{1,40}\\z"));
    return plain.match(name).hasMatch() ? QStringLiteral("parameter '%1' is repeated").arg(name)
                                        : QStringLiteral("a parameter is repeated");
}

QString quotedToken(const QString &value, const QString &otherwise)
{
    static const QRegularExpression token(
        QStringLiteral("^[\\x21\\x23-\\x5B\\x5D-\\x7E]{1,64}\\z"));
    return token.match(value).hasMatch() ? QStringLiteral("'%1'").arg(value) : otherwise;
}

bool parseUrlEncoded(const QByteArray &encoded, QHash<QString, QString> *out, QString *repeated)
{
    for (const QByteArray &pair : encoded.split('&')) {
        if (pair.isEmpty())
            continue;
        const qsizetype eq = pair.indexOf('=');
        const QString name = formDecode(eq < 0 ? pair : pair.left(eq));
        const QString value = eq < 0 ? QString() : formDecode(pair.mid(eq + 1));
        if (out->contains(name)) {
            *repeated = name;
            return false;
        }
        out->insert(name, value);
    }
    return true;
}

std::optional<OAuthError> parseForm(const Core::HttpRequest &req, QHash<QString, QString> *out)
{
    const QByteArray type = req.header("content-type").split(';').first().trimmed().toLower();
    if (type != "application/x-www-form-urlencoded")
        return invalidRequest(QStringLiteral("the body must be application/x-www-form-urlencoded"));
    QString repeated;
    if (!parseUrlEncoded(req.body, out, &repeated))
        return invalidRequest(repeatedParameter(repeated));
    return std::nullopt;
}

QString cookieValue(const Core::HttpRequest &req, const QByteArray &name)
{
    QString found;
    int seen = 0;
    for (const auto &h : req.headers) {
        if (h.first != "cookie")
            continue;
        for (const QByteArray &part : h.second.split(';')) {
            const QByteArray kv = part.trimmed();
            if (kv.startsWith(name + '=') && ++seen == 1)
                found = QString::fromLatin1(kv.mid(name.size() + 1));
        }
    }
    return seen == 1 ? found : QString();
}

} // namespace Gatehouse::OAuth
