// OpenID Connect RP-Initiated Logout 1.0: /oauth2/logout ends the browser's session here.
#include "core/clock.h"
#include "core/eventbus.h"
#include "core/httpserver.h"
#include "crypto/digest.h"
#include "oauth/authorize.h"
#include "oauth/clientregistry.h"
#include "oauth/form.h"

#include <QJsonObject>

namespace Gatehouse::OAuth {

using Core::HttpRequest;
using Core::HttpResponse;
using Core::Responder;

namespace {

HttpResponse logoutError(const QString &description)
{
    return htmlPage(400, QStringLiteral("Sign-out error"),
                    QStringLiteral("<h1>This sign-out request cannot continue</h1>"
                                   "<p id=\"error-code\">invalid_request</p>"
                                   "<p id=\"error-description\">%1</p>")
                        .arg(htmlEscape(description)));
}

QString signedOutHeading()
{
    return QStringLiteral("<h1 id=\"signed-out\">You are signed out</h1>");
}

HttpResponse signedOutPage()
{
    return htmlPage(200, QStringLiteral("Signed out"),
                    signedOutHeading() +
                        QStringLiteral("<p class=\"muted\">You can close this window.</p>"));
}

} // namespace

QString AuthorizeEndpoint::logoutToken(const QString &sessionValue)
{
    if (sessionValue.isEmpty())
        return {};
    return QString::fromLatin1(
        Crypto::Digest::hmacSha256(sessionValue.toUtf8(), {"gatehouse logout\n"})
            .toBase64(QByteArray::Base64UrlEncoding | QByteArray::OmitTrailingEquals));
}

void AuthorizeEndpoint::registerLogoutRoutes()
{
    for (const char *method : {"GET", "POST"})
        m_server.routeDeferred(
            method, QStringLiteral("/oauth2/logout"),
            [this](const HttpRequest &req, const Responder &respond) { logout(req, respond); });
}

void AuthorizeEndpoint::logout(const HttpRequest &req, const Responder &respond)
{
    // The parameters: the query of a GET, the form of a POST (§2), each at most once.
    const bool post = req.method == "POST";
    QHash<QString, QString> p;
    if (post) {
        if (auto e = parseForm(req, &p))
            return respond(logoutError(e->description));
    } else {
        // As the authorization endpoint reads its query: '+' is a space.
        const qsizetype q = req.target.indexOf('?');
        QString repeated;
        if (q >= 0 && !parseUrlEncoded(req.target.mid(q + 1), &p, &repeated))
            return respond(logoutError(repeatedParameter(repeated)));
    }
    const QString state = p.value(QStringLiteral("state"));
    if (stateTooLong(state))
        return respond(
            logoutError(QStringLiteral("state is longer than 2048 bytes once percent-encoded")));
    // The client: the id_token_hint's audience, or client_id (both: the same one).
    QString clientId = p.value(QStringLiteral("client_id"));
    const QString hint = p.value(QStringLiteral("id_token_hint"));
    if (!hint.isEmpty()) {
        const QString hinted = hintedClient(hint);
        if (hinted.isEmpty())
            return respond(logoutError(QStringLiteral(
                "id_token_hint is not an id_token this server issued (or its key is retired)")));
        if (!clientId.isEmpty() && clientId != hinted)
            return respond(
                logoutError(QStringLiteral("client_id is not the id_token_hint's audience")));
        clientId = hinted;
    }
    const std::optional<Client> client =
        clientId.isEmpty() ? std::nullopt : m_clients.find(clientId);
    if (!clientId.isEmpty() && !client)
        return respond(logoutError(QStringLiteral("client_id names no client of this server")));
    // Never a redirect to where the client did not register (an open redirector otherwise).
    const QString target = p.value(QStringLiteral("post_logout_redirect_uri"));
    if (!target.isEmpty()) {
        if (!client)
            return respond(logoutError(
                QStringLiteral("post_logout_redirect_uri needs id_token_hint or client_id")));
        if (!client->postLogoutRedirectUris.contains(target))
            return respond(logoutError(
                QStringLiteral("post_logout_redirect_uri is not registered for this client "
                               "(post_logout_redirect_uris)")));
    }
    const QByteArray location =
        target.isEmpty()
            ? QByteArray()
            : withParams(target, state.isEmpty() ? QList<QPair<QString, QString>>{}
                                                 : QList<QPair<QString, QString>>{
                                                       {QStringLiteral("state"), state}});
    // The cookie is cleared only where the request carried one: a cross-site POST comes
    // without it (SameSite=Lax), and must not end the session by its answer either.
    const bool hadCookie = !sessionCookieValue(req).isEmpty();
    // A client whose addresses no administrator vouched for gets a link, not a redirect
    // (RFC 9700 §4.11.2; Client::redirectsVetted).
    const bool vetted = !client || client->redirectsVetted();
    auto done = [location, hadCookie, vetted, cleared = sessionCookieCleared()] {
        HttpResponse r =
            location.isEmpty() ? signedOutPage()
            : vetted           ? seeOther(location)
                     : leavingPage(200, QStringLiteral("Signed out"), signedOutHeading(), location);
        if (hadCookie)
            r.headers.append({"Set-Cookie", cleared});
        return r;
    };
    const QString sessionHash = sessionHashOf(req);
    const auto lookedUp =
        sessionHash.isEmpty()
            ? Core::Result<std::optional<Session>>(std::optional<Session>())
            : m_signIns.lookupSession(sessionHash, m_clock.now().toMSecsSinceEpoch());
    if (!lookedUp) {
        // Not "signed out" (with the cookie cleared) when the session could not be read: it
        // and the tokens issued in it would live on. The cookie stays, to try again with.
        HttpResponse r = errorPage(
            lookedUp.error().httpStatus == 503 ? 503 : 500,
            QStringLiteral("temporarily_unavailable"),
            QStringLiteral("You could not be signed out: the server cannot reach its database at "
                           "the moment. Try again in a moment."));
        if (lookedUp.error().httpStatus == 503)
            r.setHeader("Retry-After", QByteArray::number(Core::kDatabaseRetryAfterS));
        return respond(r);
    }
    const std::optional<Session> &session = *lookedUp;
    if (!session)
        return respond(done()); // nobody is signed in here: nothing to confirm
    // The user confirms on a form of this server's (a request alone, from any site, signs
    // nobody out): its token is keyed by the session cookie, which no other site reads.
    const QString expected = logoutToken(sessionCookieValue(req));
    const QString presented = p.value(QStringLiteral("csrf"));
    if (!post || !p.contains(QStringLiteral("csrf"))) {
        const auto user = m_users.find(session->userId);
        const QString body =
            QStringLiteral(
                "<h1>Sign out?</h1><p>You are signed in as <b id=\"username\">%1</b>. Sign out "
                "of Gatehouse in this browser?</p><form id=\"logout-form\" method=\"post\" "
                "action=\"%2\">%3%4%5%6"
                "<button type=\"submit\" id=\"sign-out\">Sign out</button></form>")
                .arg(htmlEscape(user ? user->username : QStringLiteral("(deleted)")),
                     htmlEscape(pagePath("logout")), hiddenInput("csrf", expected),
                     hiddenInput("client_id", clientId),
                     hiddenInput("post_logout_redirect_uri", target), hiddenInput("state", state));
        return respond(htmlPage(200, QStringLiteral("Sign out"), body));
    }
    if (presented.isEmpty() || presented != expected)
        return respond(logoutError(QStringLiteral(
            "the sign-out form does not belong to this browser's session; open it again")));
    const QString userId = session->userId;
    m_signIns.endSession(sessionHashOf(req), m_clock.now().toMSecsSinceEpoch(),
                         [this, respond, done, userId, clientId](const Core::Result<int> &r) {
                             if (!r)
                                 return respond(
                                     errorPage(500, QStringLiteral("server_error"),
                                               QStringLiteral("the session could not be ended")));
                             m_events.publish(QStringLiteral("oauth.logout"),
                                              QJsonObject{{QStringLiteral("userId"), userId},
                                                          {QStringLiteral("clientId"), clientId},
                                                          {QStringLiteral("revokedTokens"), *r}});
                             respond(done());
                         });
}

} // namespace Gatehouse::OAuth
