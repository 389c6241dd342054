// The authorization server's parsers of browser and client input: urlencoded forms and
// queries (token, authorize, login, consent, device pages), the Cookie header, HTTP Basic
// client credentials, and RFC 8628 user codes as typed by a person.
#include "core/httpmessage.h"
#include "oauth/authorize.h"
#include "oauth/form.h"

#include "fuzzassert.h"

#include <QUrl>

#include <cstddef>
#include <cstdint>

using namespace Gatehouse;

namespace {

QByteArray encode(const QHash<QString, QString> &form)
{
    QByteArray out;
    for (auto it = form.begin(); it != form.end(); ++it) {
        if (!out.isEmpty())
            out += '&';
        out += QUrl::toPercentEncoding(it.key()) + '=' + QUrl::toPercentEncoding(it.value());
    }
    return out;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const QByteArray input(reinterpret_cast<const char *>(data), qsizetype(size));

    // Forms: each name once; what parsed re-encodes and parses to the same map.
    QHash<QString, QString> form;
    QString repeated;
    if (OAuth::parseUrlEncoded(input, &form, &repeated)) {
        QHash<QString, QString> again;
        QString repeatedAgain;
        FUZZ_ASSERT(OAuth::parseUrlEncoded(encode(form), &again, &repeatedAgain),
                    "a re-encoded form parses");
        FUZZ_ASSERT(again == form, "parsing is stable under re-encoding");
    } else {
        FUZZ_ASSERT(form.contains(repeated), "the repeated name was seen first");
    }

    // Cookie header and a form body through the request-level helpers.
    Core::HttpRequest req;
    req.headers.append(qMakePair(QByteArray("cookie"), input));
    req.headers.append(
        qMakePair(QByteArray("content-type"), QByteArray("application/x-www-form-urlencoded")));
    req.body = input;
    const QString cookie = OAuth::cookieValue(req, "gh_session");
    FUZZ_ASSERT(!cookie.contains(QLatin1Char(';')), "a cookie value never spans pairs");
    QHash<QString, QString> body;
    const auto error = OAuth::parseForm(req, &body);
    FUZZ_ASSERT(!error || error->error == QLatin1String("invalid_request"),
                "a bad form is invalid_request");

    // User codes: empty, or 8 characters of the consonant alphabet.
    const QString code = OAuth::normalizeUserCode(QString::fromUtf8(input));
    FUZZ_ASSERT(code.isEmpty() || code.size() == 8, "user codes are 8 characters");
    for (const QChar c : code)
        FUZZ_ASSERT(QStringLiteral("BCDFGHJKLMNPQRSTVWXZ").contains(c), "user code alphabet");
    if (!code.isEmpty())
        FUZZ_ASSERT(OAuth::normalizeUserCode(OAuth::formatUserCode(code)) == code,
                    "a formatted code normalizes back");

    // Basic credentials decode like the token endpoint does; never crash on anything.
    const QByteArray decoded = QByteArray::fromBase64(input);
    const qsizetype colon = decoded.indexOf(':');
    if (colon >= 0) {
        const QString id = OAuth::formDecode(decoded.left(colon));
        const QString secret = OAuth::formDecode(decoded.mid(colon + 1));
        FUZZ_ASSERT(id.size() <= decoded.size() && secret.size() <= decoded.size(),
                    "decoding never grows");
    }
    return 0;
}
