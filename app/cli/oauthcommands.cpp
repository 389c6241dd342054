#include "cli/oauthcommands.h"

#include <QJsonArray>
#include <QJsonDocument>

#include <cstdio>

namespace Gatehouse::Cli::OAuthCommands {

namespace {

// The JSON document in FILE (or stdin for "-") sent as the body; 2 when it cannot be read.
int sendInput(const Invocation &in, const QByteArray &method, const QString &path,
              const QString &file)
{
    const auto input = readInput(file, in.err);
    if (!input)
        return 2;
    return send(in, {method, path, *input}, answerPrinter(in));
}

// Claims {name: value} with their sources {name: {source, detail}} as table rows; perToken
// false leaves out what differs in every token (iat, exp, jti, at_hash, auth_time).
QJsonArray claimRows(const QJsonObject &claims, const QJsonObject &sources, bool perToken)
{
    static const QStringList timeBound{QStringLiteral("iat"), QStringLiteral("exp"),
                                       QStringLiteral("jti"), QStringLiteral("at_hash"),
                                       QStringLiteral("auth_time")};
    QJsonArray rows;
    for (auto it = claims.begin(); it != claims.end(); ++it) {
        if (!perToken && timeBound.contains(it.key()))
            continue;
        const QJsonObject src = sources.value(it.key()).toObject();
        rows.append(QJsonObject{
            {QStringLiteral("claim"), it.key()},
            {QStringLiteral("value"),
             it.value().isString()
                 ? it.value().toString()
                 : QString::fromUtf8(
                       QJsonDocument(QJsonArray{it.value()}).toJson(QJsonDocument::Compact))
                       .mid(1)
                       .chopped(1)},
            {QStringLiteral("source"), src.value(QStringLiteral("source")).toString()},
            {QStringLiteral("detail"), src.value(QStringLiteral("detail")).toString()}});
    }
    return rows;
}

void printClaims(const QJsonArray &rows, QTextStream &out)
{
    printTable(rows,
               {{"claim", "CLAIM"}, {"value", "VALUE"}, {"source", "SOURCE"}, {"detail", "WHY"}},
               out);
}

// The claims of a token every issue shares.
void printTokenClaims(const QJsonObject &token, QTextStream &out)
{
    printClaims(claimRows(token.value(QStringLiteral("claims")).toObject(),
                          token.value(QStringLiteral("sources")).toObject(), false),
                out);
}

QString scopes(const QJsonObject &o)
{
    QStringList l;
    for (const QJsonValue v : o.value(QStringLiteral("scopes")).toArray())
        l.append(v.toObject().value(QStringLiteral("scope")).toString());
    return l.join(QLatin1Char(' '));
}

void printUserAccess(const QJsonObject &answer, QTextStream &out)
{
    const QJsonArray clients = answer.value(QStringLiteral("clients")).toArray();
    out << "user "
        << answer.value(QStringLiteral("subject"))
               .toObject()
               .value(QStringLiteral("username"))
               .toString()
        << ": " << clients.size() << " client(s) can act for this user\n";
    for (const QJsonValue v : clients) {
        const QJsonObject c = v.toObject();
        out << "\nclient " << field(c, "clientName") << " (" << field(c, "clientId") << "): scopes "
            << scopes(c) << "; consent "
            << (c.value(QStringLiteral("consent")).isNull()
                    ? QStringLiteral("not given yet")
                    : QStringLiteral("given for ") + c.value(QStringLiteral("consent"))
                                                         .toObject()
                                                         .value(QStringLiteral("scope"))
                                                         .toString())
            << "\n";
        printTokenClaims(c.value(QStringLiteral("accessToken")).toObject(), out);
    }
}

void printClientAccess(const QJsonObject &answer, QTextStream &out)
{
    out << "client "
        << answer.value(QStringLiteral("subject"))
               .toObject()
               .value(QStringLiteral("clientName"))
               .toString()
        << ": grants " << field(answer, "grantTypes") << "; scopes " << scopes(answer)
        << (answer.value(QStringLiteral("actsForUsers")).toBool()
                ? QStringLiteral("; acts for users (see users access)")
                : QString())
        << "\naudiences:\n";
    for (const QJsonValue v : answer.value(QStringLiteral("audiences")).toArray())
        out << "  " << v.toObject().value(QStringLiteral("audience")).toString() << " ("
            << v.toObject().value(QStringLiteral("detail")).toString() << ")\n";
    if (answer.contains(QStringLiteral("clientCredentials"))) {
        out << "client_credentials access token:\n";
        printTokenClaims(answer.value(QStringLiteral("clientCredentials")).toObject(), out);
    }
}

// POST /admin/v1/oauth/access for {member: the argument}.
int sendAccess(const Invocation &in, const char *member,
               void (*view)(const QJsonObject &, QTextStream &))
{
    return send(in,
                {"POST", QStringLiteral("/admin/v1/oauth/access"),
                 QJsonObject{{QLatin1String(member), in.args[0]}}},
                viewPrinter(in, view));
}

const QList<Column> KeyColumns{{"kid", "KID"},
                               {"alg", "ALG"},
                               {"state", "STATE"},
                               {"createdAt", "CREATED"},
                               {"retireAfter", "RETIRE AFTER"}};

void printTokenPreview(const QJsonObject &answer, QTextStream &out)
{
    out << "preview of a " << answer.value(QStringLiteral("format")).toString()
        << " access token for " << answer.value(QStringLiteral("clientId")).toString() << " ("
        << answer.value(QStringLiteral("grantType")).toString()
        << "), not issued: " << answer.value(QStringLiteral("note")).toString() << "\n";
    printClaims(claimRows(answer.value(QStringLiteral("claims")).toObject(),
                          answer.value(QStringLiteral("sources")).toObject(), true),
                out);
    const QJsonArray also = answer.value(QStringLiteral("alsoIssued")).toArray();
    if (!also.isEmpty())
        out << "also issued: " << field(answer, "alsoIssued") << "\n";
}

} // namespace

int clientsList(const Invocation &in)
{
    return listTable(in, {{"client_id", "CLIENT ID"},
                          {"client_name", "NAME"},
                          {"token_endpoint_auth_method", "AUTH"},
                          {"scope", "SCOPES"},
                          {"access_token_format", "TOKENS"}});
}

int clientsRegister(const Invocation &in)
{
    // RFC 7591 client metadata, as JSON from a file or stdin.
    return sendInput(in, "POST", QStringLiteral("/admin/v1/clients"), in.args[0]);
}

int clientsUpdate(const Invocation &in)
{
    return sendInput(in, "PUT", QStringLiteral("/admin/v1/clients/%1").arg(pathSegment(in.args[0])),
                     in.args[1]);
}

int clientsAccess(const Invocation &in)
{
    return sendAccess(in, "client_id", printClientAccess);
}

int keysList(const Invocation &in)
{
    return sendList(in, QStringLiteral("signing-keys"), tablePrinter(in, KeyColumns));
}

int keysRotate(const Invocation &in)
{
    const QString alg = in.value("alg").isEmpty() ? QStringLiteral("RS256") : in.value("alg");
    return send(in,
                {"POST", QStringLiteral("/admin/v1/signing-keys/rotate"),
                 QJsonObject{{QStringLiteral("alg"), alg}}},
                tablePrinter(in, KeyColumns));
}

int usersList(const Invocation &in)
{
    return listTable(in, {{"id", "ID"},
                          {"username", "USERNAME"},
                          {"email", "EMAIL"},
                          {"groups", "GROUPS"},
                          {"locked", "LOCKED"}});
}

int usersAdd(const Invocation &in)
{
    return sendInput(in, "POST", QStringLiteral("/admin/v1/users"), in.args[0]);
}

int usersSetPassword(const Invocation &in)
{
    // The first line of stdin; never an argument (it would show in the process list).
    QTextStream stdinText(stdin);
    const QString password = stdinText.readLine();
    if (password.isEmpty()) {
        in.err << "gatehouse admin: give the new password on stdin\n";
        return 2;
    }
    return send(in,
                {"PATCH", QStringLiteral("/admin/v1/users/%1").arg(pathSegment(in.args[0])),
                 QJsonObject{{QStringLiteral("password"), password}}},
                answerPrinter(in));
}

int usersAccess(const Invocation &in)
{
    return sendAccess(in, "username", printUserAccess);
}

int initialAccessTokensCreate(const Invocation &in)
{
    QJsonObject o;
    if (!wholeNumber(in, "expires-in", "expiresIn", "", o) ||
        !wholeNumber(in, "max-uses", "maxUses", "", o))
        return 2;
    return send(in, {"POST", QStringLiteral("/admin/v1/initial-access-tokens"), o},
                answerPrinter(in));
}

int initialAccessTokensList(const Invocation &in)
{
    return listTable(in, {{"id", "ID"},
                          {"createdAt", "CREATED"},
                          {"expiresAt", "EXPIRES"},
                          {"maxUses", "MAX USES"},
                          {"usedCount", "USED"}});
}

int tokensList(const Invocation &in)
{
    return listTable(in, {{"id", "ID"},
                          {"kind", "KIND"},
                          {"clientId", "CLIENT"},
                          {"username", "USER"},
                          {"scope", "SCOPES"},
                          {"expiresAt", "EXPIRES"}});
}

int tokensPreview(const Invocation &in)
{
    const auto input = readInput(in.args[0], in.err);
    if (!input)
        return 2;
    return send(in, {"POST", QStringLiteral("/admin/v1/tokens/preview"), *input},
                viewPrinter(in, printTokenPreview));
}

int issuersList(const Invocation &in)
{
    return sendList(in, QStringLiteral("trusted-issuers"),
                    tablePrinter(in, {{"issuer", "ISSUER"},
                                      {"scopes", "SCOPES"},
                                      {"anySubject", "ANY SUBJECT"},
                                      {"subjects", "SUBJECTS"},
                                      {"createdAt", "ADDED"}}));
}

int issuersAdd(const Invocation &in)
{
    return sendInput(in, "POST", QStringLiteral("/admin/v1/trusted-issuers"), in.args[0]);
}

int issuersRemove(const Invocation &in)
{
    Request request{"DELETE", QStringLiteral("/admin/v1/trusted-issuers")};
    request.query.addQueryItem(QStringLiteral("issuer"),
                               QString::fromLatin1(QUrl::toPercentEncoding(in.args[0])));
    return send(in, request, answerPrinter(in));
}

int consentsList(const Invocation &in)
{
    return listTable(in, {{"userId", "USER ID"},
                          {"username", "USERNAME"},
                          {"clientId", "CLIENT"},
                          {"scope", "SCOPES"},
                          {"grantedAt", "GRANTED"}});
}

int consentsRevoke(const Invocation &in)
{
    return send(in,
                {"DELETE", QStringLiteral("/admin/v1/consents/%1/%2")
                               .arg(pathSegment(in.args[0]), pathSegment(in.args[1]))},
                answerPrinter(in));
}

} // namespace Gatehouse::Cli::OAuthCommands
