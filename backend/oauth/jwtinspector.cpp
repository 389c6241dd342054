#include "oauth/jwtinspector.h"
#include "core/clock.h"

#include "crypto/jws.h"

#include <QJsonArray>
#include <QJsonDocument>

namespace Gatehouse::OAuth {

namespace {

QString span(qint64 seconds)
{
    seconds = std::abs(seconds);
    if (seconds < 120)
        return QStringLiteral("%1 s").arg(seconds);
    if (seconds < 7200)
        return QStringLiteral("%1 min").arg(seconds / 60);
    if (seconds < 2 * 86400)
        return QStringLiteral("%1 h").arg(seconds / 3600);
    return QStringLiteral("%1 days").arg(seconds / 86400);
}

struct Checks
{
    QJsonArray list;
    QStringList failures;
    void add(const char *name, const char *status, const QString &detail)
    {
        list.append(QJsonObject{{QStringLiteral("name"), QLatin1String(name)},
                                {QStringLiteral("status"), QLatin1String(status)},
                                {QStringLiteral("detail"), detail}});
        if (qstrcmp(status, "fail") == 0)
            failures.append(detail);
    }
};

bool audienceContains(const QJsonValue &aud, const QString &expected)
{
    if (aud.isString())
        return aud.toString() == expected;
    for (const auto &a : aud.toArray())
        if (a.toString() == expected)
            return true;
    return false;
}

} // namespace

QJsonObject inspectJwt(const QByteArray &compact, const JwtKeySource &keys,
                       const JwtExpectations &expect)
{
    QJsonObject out;
    const QByteArray token = compact.trimmed();
    auto decoded = Crypto::Jws::decodeUnverified(token);
    if (!decoded) {
        out.insert(QStringLiteral("valid"), false);
        out.insert(QStringLiteral("verdict"),
                   QStringLiteral("Not a JWT: %1").arg(decoded.error().message));
        out.insert(QStringLiteral("checks"), QJsonArray());
        return out;
    }
    const QJsonObject header = decoded->value(QStringLiteral("header")).toObject();
    const QJsonValue payloadValue = decoded->value(QStringLiteral("payload"));
    const QJsonObject payload = payloadValue.toObject();
    out.insert(QStringLiteral("header"), header);
    out.insert(QStringLiteral("payload"), payloadValue);
    Checks c;

    const QString alg = header.value(QStringLiteral("alg")).toString();
    const bool algOk = alg == QLatin1String("RS256") || alg == QLatin1String("PS256") ||
                       alg == QLatin1String("ES256");
    if (alg.isEmpty())
        c.add("alg", "fail", QStringLiteral("the header has no alg"));
    else if (alg.compare(QLatin1String("none"), Qt::CaseInsensitive) == 0)
        c.add("alg", "fail", QStringLiteral("alg \"none\" means unsigned: refused"));
    else if (alg.startsWith(QLatin1String("HS")))
        c.add("alg", "fail",
              QStringLiteral("alg %1 is a shared-secret MAC: refused (a public key must never "
                             "verify it)")
                  .arg(alg));
    else if (!algOk)
        c.add("alg", "fail",
              QStringLiteral("alg %1 is not supported (RS256, PS256, ES256)").arg(alg));
    else
        c.add("alg", "pass", QStringLiteral("alg %1").arg(alg));

    // The key: a pasted PEM, a pasted JWK / JWK Set, else this server's JWKS.
    QString source = QStringLiteral("server-jwks");
    QJsonObject set = keys.serverJwks;
    if (!keys.pem.trimmed().isEmpty()) {
        source = QStringLiteral("pasted-pem");
        auto jwk = Crypto::Jws::publicJwkFromPem(keys.pem.toUtf8());
        if (!jwk) {
            c.add("signature", "fail",
                  QStringLiteral("the pasted PEM: %1").arg(jwk.error().message));
            set = {};
        } else {
            QJsonObject k = *jwk;
            if (algOk)
                k.insert(QStringLiteral("alg"), alg);
            // The pasted key is the one meant, whatever kid the token names.
            const QString tokenKid = header.value(QStringLiteral("kid")).toString();
            if (!tokenKid.isEmpty())
                k.insert(QStringLiteral("kid"), tokenKid);
            set = QJsonObject{{QStringLiteral("keys"), QJsonArray{k}}};
        }
    } else if (!keys.jwks.isEmpty()) {
        source = QStringLiteral("pasted-jwks");
        set = keys.jwks.contains(QStringLiteral("keys"))
                  ? keys.jwks
                  : QJsonObject{{QStringLiteral("keys"), QJsonArray{keys.jwks}}};
    }
    out.insert(QStringLiteral("keySource"), source);
    const QString kid = header.value(QStringLiteral("kid")).toString();
    const QJsonArray setKeys = set.value(QStringLiteral("keys")).toArray();
    if (source != QLatin1String("pasted-pem")) {
        int matches = 0;
        for (const auto &k : setKeys)
            if (!kid.isEmpty() && k.toObject().value(QStringLiteral("kid")).toString() == kid)
                ++matches;
        if (kid.isEmpty())
            c.add("kid", setKeys.size() == 1 ? "pass" : "fail",
                  setKeys.size() == 1
                      ? QStringLiteral("no kid; the key set has one key")
                      : QStringLiteral("no kid, and the key set has %1 keys").arg(setKeys.size()));
        else if (matches == 0)
            c.add("kid", "fail", QStringLiteral("kid %1 is not in the key set").arg(kid));
        else
            c.add("kid", "pass", QStringLiteral("kid %1 found").arg(kid));
    } else {
        c.add("kid", "skip", QStringLiteral("a pasted PEM key is used whatever the kid"));
    }
    if (!set.isEmpty()) {
        if (!algOk) {
            c.add("signature", "fail", QStringLiteral("not verified: the alg is refused"));
        } else {
            auto verified = Crypto::Jws::verifyWithJwks(token, set);
            if (verified)
                c.add("signature", "pass",
                      QStringLiteral("signature verified (%1, %2)")
                          .arg(verified->alg, source == QLatin1String("server-jwks")
                                                  ? QStringLiteral("this server's JWKS")
                                              : source == QLatin1String("pasted-jwks")
                                                  ? QStringLiteral("the pasted JWKS")
                                                  : QStringLiteral("the pasted PEM key")));
            else
                c.add("signature", "fail",
                      QStringLiteral("signature not verified: %1").arg(verified.error().message));
        }
    }

    const qint64 now = expect.now / 1000;
    const QJsonValue exp = payload.value(QStringLiteral("exp"));
    if (!exp.isDouble())
        c.add("exp", "fail", QStringLiteral("no exp claim: the token never expires"));
    else if (Core::jsonSeconds(exp) + expect.leewayS < now)
        c.add("exp", "fail",
              QStringLiteral("expired %1 ago").arg(span(now - Core::jsonSeconds(exp))));
    else
        c.add("exp", "pass",
              QStringLiteral("expires in %1").arg(span(Core::jsonSeconds(exp) - now)));
    const QJsonValue nbf = payload.value(QStringLiteral("nbf"));
    if (nbf.isUndefined())
        c.add("nbf", "skip", QStringLiteral("no nbf claim"));
    else if (!nbf.isDouble() || Core::jsonSeconds(nbf) - expect.leewayS > now)
        c.add(
            "nbf", "fail",
            QStringLiteral("not valid before %1 from now").arg(span(Core::jsonSeconds(nbf) - now)));
    else
        c.add("nbf", "pass",
              QStringLiteral("valid since %1").arg(span(now - Core::jsonSeconds(nbf))));
    const QJsonValue iat = payload.value(QStringLiteral("iat"));
    if (iat.isDouble() && Core::jsonSeconds(iat) - expect.leewayS > now)
        c.add("iat", "fail",
              QStringLiteral("issued in the future (%1 from now)")
                  .arg(span(Core::jsonSeconds(iat) - now)));
    else if (iat.isDouble())
        c.add("iat", "pass",
              QStringLiteral("issued %1 ago").arg(span(now - Core::jsonSeconds(iat))));
    else
        c.add("iat", "skip", QStringLiteral("no iat claim"));
    const QString iss = payload.value(QStringLiteral("iss")).toString();
    if (expect.issuer.isEmpty())
        c.add("iss", "skip", QStringLiteral("issuer not checked"));
    else if (iss != expect.issuer)
        c.add("iss", "fail",
              QStringLiteral("iss is \"%1\", expected \"%2\"").arg(iss, expect.issuer));
    else
        c.add("iss", "pass", QStringLiteral("iss is %1").arg(iss));
    const QJsonValue aud = payload.value(QStringLiteral("aud"));
    if (expect.audience.isEmpty())
        c.add("aud", "skip", QStringLiteral("audience not checked"));
    else if (!audienceContains(aud, expect.audience))
        c.add("aud", "fail", QStringLiteral("aud does not contain \"%1\"").arg(expect.audience));
    else
        c.add("aud", "pass", QStringLiteral("aud contains %1").arg(expect.audience));

    // A timestamp in milliseconds reads as a date thousands of years ahead: exp then never
    // fails, which is the usual way this bug goes unnoticed.
    QJsonArray warnings;
    for (const char *claim : {"exp", "nbf", "iat", "auth_time"}) {
        const QJsonValue v = payload.value(QLatin1String(claim));
        if (v.isDouble() && v.toDouble() > 1e11)
            warnings.append(QStringLiteral("%1 is %2: that looks like milliseconds, not seconds "
                                           "(as seconds it is after the year 5000)")
                                .arg(QLatin1String(claim))
                                .arg(Core::jsonSeconds(v)));
    }
    out.insert(QStringLiteral("warnings"), warnings);

    const bool valid = c.failures.isEmpty();
    out.insert(QStringLiteral("checks"), c.list);
    out.insert(QStringLiteral("valid"), valid);
    out.insert(QStringLiteral("verdict"),
               valid ? QStringLiteral("Valid: every check passed.")
                     : QStringLiteral("Invalid: %1.").arg(c.failures.join(QStringLiteral("; "))));
    return out;
}

} // namespace Gatehouse::OAuth
