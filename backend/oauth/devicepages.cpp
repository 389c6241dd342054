// RFC 8628 §3.3: the user verification pages of the device authorization grant.
#include "core/clock.h"
#include "core/database.h"
#include "core/eventbus.h"
#include "core/httpserver.h"
#include "core/writequeue.h"
#include "crypto/digest.h"
#include "crypto/random.h"
#include "oauth/authorize.h"
#include "oauth/clientregistry.h"
#include "oauth/form.h"

#include <QJsonObject>
#include <QSqlQuery>

namespace Gatehouse::OAuth {

using Core::HttpRequest;
using Core::HttpResponse;
using Core::Responder;

namespace {

constexpr const char *kDeviceCookie = "gh_device"; // double-submit CSRF token of the pages

QString tooManyCodes()
{
    return QStringLiteral("Too many codes entered. Wait a minute and try again.");
}
const QString kAlphabet = QStringLiteral("BCDFGHJKLMNPQRSTVWXZ");

} // namespace

QString newUserCode()
{
    const QByteArray random = Crypto::Random::bytes(8);
    QString code;
    for (const char b : random)
        code +=
            kAlphabet.at(static_cast<unsigned char>(b) % kAlphabet.size()); // 256 % 20: tiny bias
    return code;
}

QString normalizeUserCode(const QString &entered)
{
    QString out;
    for (const QChar c : entered) {
        if (c == QLatin1Char('-') || c.isSpace())
            continue;
        out += c.toUpper();
    }
    for (const QChar c : std::as_const(out))
        if (!kAlphabet.contains(c))
            return {};
    return out.size() == 8 ? out : QString();
}

void AuthorizeEndpoint::registerDeviceRoutes()
{
    m_server.route("GET", QStringLiteral("/oauth2/device"), [this](const HttpRequest &req) {
        const QString csrf = Crypto::Random::token(16);
        HttpResponse r = devicePage(
            200, csrf, req.query.queryItemValue(QStringLiteral("user_code"), QUrl::FullyDecoded),
            sessionFor(req).has_value(), {});
        r.headers.append({"Set-Cookie", cookie(kDeviceCookie, csrf, 30 * 60'000)});
        return r;
    });
    Core::RouteOptions pool; // may verify a password (argon2id)
    pool.async = true;
    pool.isolated = true; // a flood of sign-ins holds up no token request
    pool.maxBodyBytes = 16 * 1024;
    m_server.routeDeferred(
        "POST", QStringLiteral("/oauth2/device"),
        [this](const HttpRequest &req, const Responder &respond) { deviceSubmit(req, respond); },
        pool);
    Core::RouteOptions small;
    small.maxBodyBytes = 16 * 1024;
    m_server.routeDeferred(
        "POST", QStringLiteral("/oauth2/device/confirm"),
        [this](const HttpRequest &req, const Responder &respond) { deviceConfirm(req, respond); },
        small);
}

HttpResponse AuthorizeEndpoint::devicePage(int status, const QString &csrf, const QString &userCode,
                                           bool signedIn, const QString &error) const
{
    QString body = QStringLiteral("<h1>Connect a device</h1><p class=\"muted\">Enter the code "
                                  "shown on your device.</p>");
    if (!error.isEmpty())
        body += QStringLiteral("<p class=\"error\" role=\"alert\">%1</p>").arg(htmlEscape(error));
    body +=
        QStringLiteral("<form id=\"device-form\" method=\"post\" action=\"%1\">%2"
                       "<label for=\"user-code\">Code</label><input id=\"user-code\" "
                       "name=\"user_code\" type=\"text\" autocomplete=\"off\" required "
                       "autofocus value=\"%3\" placeholder=\"XXXX-XXXX\">")
            .arg(htmlEscape(pagePath("device")), hiddenInput("csrf", csrf), htmlEscape(userCode));
    if (!signedIn)
        body += QStringLiteral("<label for=\"username\">Username</label><input id=\"username\" "
                               "name=\"username\" type=\"text\" autocomplete=\"username\" "
                               "required><label for=\"password\">Password</label><input "
                               "id=\"password\" name=\"password\" type=\"password\" "
                               "autocomplete=\"current-password\" required>");
    body += QStringLiteral("<button id=\"device-submit\" type=\"submit\">Continue</button></form>");
    return htmlPage(status, QStringLiteral("Connect a device"), body);
}

HttpResponse AuthorizeEndpoint::deviceConfirmPage(const QString &confirmToken,
                                                  const QString &userCode, const QString &clientId,
                                                  const QStringList &scopes,
                                                  const QString &userId) const
{
    const auto client = m_clients.find(clientId);
    const QString name = client ? client->clientName : clientId;
    QString body;
    if (client && !client->logoUri.isEmpty())
        body += QStringLiteral("<img id=\"client-logo\" class=\"logo\" src=\"%1\" alt=\"\">")
                    .arg(htmlEscape(client->logoUri));
    body += QStringLiteral("<h1><bdi id=\"client-name\">%1</bdi> on your device wants to "
                           "access your account</h1><p>Code <code id=\"confirm-code\">%2</code>. "
                           "It asks to:</p><ul id=\"scopes\">")
                .arg(htmlEscape(name), htmlEscape(formatUserCode(userCode)));
    for (const QString &s : scopes)
        body += QStringLiteral("<li data-scope=\"%1\">%2 <span class=\"muted\">(<code>%1</code>)"
                               "</span></li>")
                    .arg(htmlEscape(s), htmlEscape(scopeDescription(s)));
    body += QStringLiteral("</ul>") + signedInAs(userId);
    // A name anybody could have chosen (open registration): said so, as the consent page does,
    // with the id that no other client has.
    // A client an administrator vouched for (its redirect URIs) still names itself through
    // RFC 7592: said so too, or a rename after any save of the client showed as the helpdesk.
    if (!client || !client->redirectsVetted())
        body += QStringLiteral("<p class=\"muted\" id=\"unvetted\">This application registered "
                               "itself with Gatehouse: no administrator has checked it, and its "
                               "name is its own choice. Its client ID is <code "
                               "id=\"client-id\">%1</code>.</p>")
                    .arg(htmlEscape(clientId));
    else if (client->selfRegistered)
        body += QStringLiteral("<p class=\"muted\" id=\"unvetted\">This application registered "
                               "itself with Gatehouse, and its name is its own choice. Its client "
                               "ID is <code id=\"client-id\">%1</code>.</p>")
                    .arg(htmlEscape(clientId));
    body += QStringLiteral("<form id=\"device-confirm-form\" method=\"post\" action=\"%1\">"
                           "%2%3<button id=\"device-approve\" name=\"decision\" value=\"allow\" "
                           "type=\"submit\">Allow</button><button id=\"device-deny\" "
                           "class=\"secondary\" name=\"decision\" value=\"deny\" "
                           "type=\"submit\">Deny</button></form>")
                .arg(htmlEscape(pagePath("device/confirm")), hiddenInput("csrf", confirmToken),
                     hiddenInput("user_code", userCode));
    return htmlPage(200, QStringLiteral("Allow the device"), body);
}

void AuthorizeEndpoint::deviceSubmit(const HttpRequest &req, const Responder &respond)
{
    QHash<QString, QString> form;
    if (auto e = parseForm(req, &form))
        return respond(errorPage(400, e->error, e->description));
    const QString csrf = form.value(QStringLiteral("csrf"));
    if (csrf.isEmpty() || csrf != cookieOf(req, kDeviceCookie))
        return respond(errorPage(400, QStringLiteral("invalid_request"),
                                 QStringLiteral("The form has expired or does not belong to this "
                                                "browser. Open the verification page again.")));
    const qint64 now = m_clock.now().toMSecsSinceEpoch();
    const auto session = sessionFor(req);
    const QString entered = form.value(QStringLiteral("user_code"));
    qint64 retryMs = 0;
    if (rateLimited(addressKey(req.peerAddress), now, &retryMs)) {
        HttpResponse r = devicePage(429, csrf, entered, session.has_value(),
                                    QStringLiteral("Too many attempts from your address. Wait a "
                                                   "minute and try again."));
        r.setHeader("Retry-After", QByteArray::number(std::max<qint64>(1, (retryMs + 999) / 1000)));
        return respond(r);
    }
    // Whether the code waits for a user is told to a signed-in user only (RFC 8628 §5.1):
    // before, "unknown code" and "enter your password" told anyone which of their guesses
    // was a live code, with no account, at the per-address limit alone (many addresses, an
    // IPv6 prefix each /64 of it, guessed unhindered). A signed-in user's lookups are counted
    // per user too.
    const QString code = normalizeUserCode(entered);
    const QString unknown = QStringLiteral("This code is unknown, already used or expired. "
                                           "Check the code on your device.");
    if (session && rateLimited(QStringLiteral("device-user:") + session->userId, now, &retryMs)) {
        HttpResponse r = devicePage(429, csrf, entered, true, tooManyCodes());
        r.setHeader("Retry-After", QByteArray::number(std::max<qint64>(1, (retryMs + 999) / 1000)));
        return respond(r);
    }
    std::optional<std::pair<QString, QStringList>> found; // the code's client and scopes
    if (!code.isEmpty()) {
        QSqlQuery q(m_database.connection());
        q.prepare(QStringLiteral("SELECT client_id, scope FROM oauth_device_codes WHERE "
                                 "user_code = ? AND status = 'pending' AND expires_at > ?"));
        q.addBindValue(code);
        q.addBindValue(now);
        if (q.exec() && q.next()) {
            const QString clientId = q.value(0).toString();
            QStringList scopes = q.value(1).toString().split(QLatin1Char(' '), Qt::SkipEmptyParts);
            // What the client may still have (the token is held to it too: DeviceCodeGrant).
            const auto client = m_clients.find(clientId);
            scopes.removeIf(
                [&client](const QString &s) { return !client || !client->scopes.contains(s); });
            found.emplace(clientId, scopes);
        }
    }
    if (session) {
        if (!found)
            return respond(devicePage(400, csrf, entered, true, unknown));
        return respond(deviceConfirmPage(deviceConfirmToken(sessionCookieValue(req), code), code,
                                         found->first, found->second, session->userId));
    }
    const QString username = form.value(QStringLiteral("username")).trimmed();
    if (username.isEmpty() || form.value(QStringLiteral("password")).isEmpty())
        return respond(devicePage(401, csrf, entered, false,
                                  QStringLiteral("Enter your username and password.")));
    const QString clientId = found ? found->first : QString();
    const QStringList scopes = found ? found->second : QStringList();
    const QString address = req.peerAddress.toString();
    const QString replaced = sessionHashOf(req); // the session this browser had, if any
    m_users.authenticate(
        username, form.value(QStringLiteral("password")).toUtf8(), now, m_settings.lockout,
        [this, csrf, entered, code, clientId, scopes, username, address, replaced, now, unknown,
         respond](const UserStore::Attempt &a) {
            QJsonObject event = loginEvent(a, username);
            if (!clientId.isEmpty())
                event.insert(QStringLiteral("clientId"), clientId);
            event.insert(QStringLiteral("address"), address);
            event.insert(QStringLiteral("via"), QStringLiteral("device"));
            m_events.publish(QStringLiteral("oauth.login"), event);
            if (a.outcome == UserStore::Outcome::Unavailable) {
                HttpResponse busy = devicePage(503, csrf, entered, false, signInUnavailable());
                busy.setHeader("Retry-After", QByteArray::number(Core::kDatabaseRetryAfterS));
                return respond(busy);
            }
            if (a.outcome == UserStore::Outcome::Locked && a.byAdministrator)
                return respond(devicePage(403, csrf, entered, false,
                                          QStringLiteral("This account is locked by an "
                                                         "administrator.")));
            if (a.outcome == UserStore::Outcome::PasswordEnded)
                return respond(
                    devicePage(403, csrf, entered, false, UserStore::passwordEndedMessage()));
            // Locked after failed sign-ins: the answer to a wrong password (UserStore::signIn).
            if (a.outcome != UserStore::Outcome::Ok)
                return respond(devicePage(401, csrf, entered, false,
                                          QStringLiteral("Wrong username or password.")));
            // Counted per user here too: signing in again with each code (no session kept,
            // another address each time) told as much as a session did.
            qint64 userRetryMs = 0;
            if (rateLimited(QStringLiteral("device-user:") + a.user.id, now, &userRetryMs)) {
                HttpResponse r = devicePage(429, csrf, entered, false, tooManyCodes());
                r.setHeader("Retry-After",
                            QByteArray::number(std::max<qint64>(1, (userRetryMs + 999) / 1000)));
                return respond(r);
            }
            const NewSession session = newSession();
            m_signIns.createSession(
                session.hash, replaced, a.user.id, a.user.updatedAt, now,
                now + m_settings.sessionLifetimeMs,
                [this, session, csrf, entered, unknown, code, clientId, scopes, userId = a.user.id,
                 respond](const Core::Result<bool> &stored) {
                    if (!stored)
                        return respond(errorPage(500, QStringLiteral("server_error"),
                                                 QStringLiteral("The sign-in could not be "
                                                                "stored.")));
                    if (!*stored)
                        return respond(errorPage(400, QStringLiteral("invalid_request"),
                                                 QStringLiteral("The sign-in has ended.")));
                    // Signed in either way: an unknown code is said now, and the next one is
                    // entered signed in.
                    HttpResponse r =
                        clientId.isEmpty()
                            ? devicePage(400, csrf, entered, true, unknown)
                            : deviceConfirmPage(deviceConfirmToken(session.value, code), code,
                                                clientId, scopes, userId);
                    r.headers.append({"Set-Cookie", session.setCookie});
                    respond(r);
                });
        });
}

void AuthorizeEndpoint::deviceConfirm(const HttpRequest &req, const Responder &respond)
{
    QHash<QString, QString> form;
    if (auto e = parseForm(req, &form))
        return respond(errorPage(400, e->error, e->description));
    const bool allow = form.value(QStringLiteral("decision")) == QLatin1String("allow");
    const qint64 now = m_clock.now().toMSecsSinceEpoch();
    // Counted like the code's entry (RFC 8628 §5.1): posted here directly, guesses of pending
    // codes would otherwise skip the limit of the page that checks a code.
    qint64 retryMs = 0;
    if (rateLimited(addressKey(req.peerAddress), now, &retryMs)) {
        HttpResponse r = errorPage(429, QStringLiteral("slow_down"),
                                   QStringLiteral("Too many attempts from your address. Wait a "
                                                  "minute and try again."));
        r.setHeader("Retry-After", QByteArray::number(std::max<qint64>(1, (retryMs + 999) / 1000)));
        return respond(r);
    }
    const QString code = normalizeUserCode(form.value(QStringLiteral("user_code")));
    const auto session = sessionFor(req);
    const QByteArray expected = deviceConfirmToken(sessionCookieValue(req), code).toLatin1();
    if (!session || code.isEmpty() || expected.isEmpty() ||
        !Crypto::Digest::equalInConstantTime(form.value(QStringLiteral("csrf")).toLatin1(),
                                             expected))
        return respond(errorPage(400, QStringLiteral("invalid_request"),
                                 QStringLiteral("The form has expired or does not belong to this "
                                                "browser. Open the verification page again.")));
    const QString userId = session->userId;
    const qint64 authTime = session->authTime;
    const QString sessionHash = sessionHashOf(req);
    auto changed = std::make_shared<bool>(false);
    m_writer.submit(
        [code, allow, userId, authTime, now, changed, sessionHash](Core::WriteTransaction &tx) {
            // An approval needs the browser session still there, and the user still allowed:
            // a new password, a lock or a deletion that committed since the session was read
            // ended it (and denied the approved codes before this one was approved).
            if (allow) {
                Core::Statement &s = tx.stmt("SELECT 1 FROM oauth_sessions WHERE hash = ? AND "
                                             "user_id = ? AND expires_at > ?");
                const bool held = s.bind(1, sessionHash).bind(2, userId).bind(3, now).next();
                if (held)
                    s.next(); // done with it
                if (!held || !UserStore::refusal(tx, userId).isEmpty())
                    return Core::Result<void>();
            }
            Core::Statement &u = tx.stmt(
                "UPDATE oauth_device_codes SET status = ?, user_id = ?, auth_time = ? WHERE "
                "user_code = ? AND status = 'pending' AND expires_at > ?");
            u.bind(1, QString::fromLatin1(allow ? "approved" : "denied")).bind(2, userId);
            u.bind(3, authTime).bind(4, code).bind(5, now);
            if (!u.exec())
                return Core::Result<void>(Core::WriteTransaction::sqlError(u, "device decision"));
            *changed = u.changes() == 1;
            return Core::Result<void>();
        },
        [changed, allow, respond](const Core::Result<void> &r) {
            if (!r || !*changed)
                return respond(errorPage(400, QStringLiteral("invalid_request"),
                                         QStringLiteral("This code is unknown, already used or "
                                                        "expired.")));
            respond(htmlPage(
                200, allow ? QStringLiteral("Device connected") : QStringLiteral("Request denied"),
                allow ? QStringLiteral("<h1 id=\"device-done\">Device connected</h1><p>You can "
                                       "return to your device.</p>")
                      : QStringLiteral("<h1 id=\"device-denied\">Request denied</h1><p>The "
                                       "device gets no access. You can close this page.</p>")));
        });
}

} // namespace Gatehouse::OAuth
