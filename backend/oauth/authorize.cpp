#include "oauth/authorize.h"

#include "core/clock.h"
#include "core/database.h"
#include "core/eventbus.h"
#include "core/httpserver.h"
#include "core/writequeue.h"
#include "crypto/digest.h"
#include "crypto/jws.h"
#include "crypto/random.h"
#include "oauth/clientregistry.h"
#include "oauth/form.h"
#include "oauth/granthandler.h"
#include "oauth/oauthlogging.h"
#include "oauth/signingkeys.h"
#include "oauth/tokenissuer.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QSqlQuery>
#include <QUrl>

namespace Gatehouse::OAuth {

using Core::HttpRequest;
using Core::HttpResponse;
using Core::Responder;

namespace {

constexpr const char *kInteractionCookie = "gh_interaction";
constexpr const char *kSessionCookie = "gh_session";
constexpr int kMaxSessions = 100'000;

bool challengeSyntaxOk(const QString &c)
{
    static const QRegularExpression re(QStringLiteral("^[A-Za-z0-9_-]{43,128}\\z"));
    return re.match(c).hasMatch();
}

QString hashCookie(const QString &v)
{
    return TokenIssuer::hashToken(v);
}

} // namespace

bool stateTooLong(const QString &state)
{
    static constexpr qsizetype kMaxEncoded = 2048;
    // A character is at most 9 bytes once encoded (3 of UTF-8, each %XX): short ones pass.
    return state.size() * 9 > kMaxEncoded && QUrl::toPercentEncoding(state).size() > kMaxEncoded;
}

QByteArray withParams(const QString &uri, const QList<QPair<QString, QString>> &params)
{
    QByteArray out = uri.toUtf8();
    bool first = !out.contains('?');
    for (const auto &p : params) {
        out += first ? '?' : '&';
        first = false;
        out += QUrl::toPercentEncoding(p.first) + '=' + QUrl::toPercentEncoding(p.second);
    }
    return out;
}

HttpResponse seeOther(const QByteArray &location)
{
    HttpResponse r{303, {}, {}, {}};
    r.setHeader("Location", location);
    r.setHeader("Cache-Control", "no-store");
    return r;
}

QString addressKey(const QHostAddress &address)
{
    bool v4 = false;
    const quint32 ip4 = address.toIPv4Address(&v4);
    if (v4)
        return QHostAddress(ip4).toString();
    Q_IPV6ADDR ip6 = address.toIPv6Address();
    for (int i = 8; i < 16; ++i)
        ip6[i] = 0;
    return QHostAddress(ip6).toString() + QStringLiteral("/64");
}

QString htmlEscape(const QString &s)
{
    return s.toHtmlEscaped();
}

QString hiddenInput(const char *name, const QString &value)
{
    return QStringLiteral("<input type=\"hidden\" name=\"%1\" value=\"%2\">")
        .arg(QLatin1String(name), htmlEscape(value));
}

HttpResponse htmlPage(int status, const QString &title, const QString &bodyHtml)
{
    static const QString style = QStringLiteral(
        "body{font-family:system-ui,-apple-system,'Segoe UI',sans-serif;background:#f4f5f7;"
        "color:#1d2330;margin:0;display:flex;justify-content:center}"
        "main{background:#fff;margin:4rem 1rem;padding:2rem 2.5rem;border-radius:10px;"
        "box-shadow:0 2px 12px rgba(0,0,0,.08);max-width:26rem;width:100%}"
        "h1{font-size:1.35rem;margin:0 0 1rem}label{display:block;margin:.8rem 0 .3rem;"
        "font-weight:600}input[type=text],input[type=password]{width:100%;box-sizing:border-box;"
        "padding:.6rem;border:1px solid #b8bfcc;border-radius:6px;font-size:1rem}"
        "button{margin-top:1.2rem;padding:.6rem 1.2rem;border:0;border-radius:6px;font-size:1rem;"
        "background:#2456c7;color:#fff;cursor:pointer}button.secondary{background:#e4e7ee;"
        "color:#1d2330;margin-left:.5rem}.error{background:#fdecec;color:#8a1c1c;padding:.6rem;"
        "border-radius:6px}.logo{max-width:64px;max-height:64px;float:right}"
        "ul{padding-left:1.2rem}li{margin:.3rem 0}code{background:#eef0f4;padding:0 .2rem}"
        ".muted{color:#5c6577;font-size:.9rem}");
    const QString html = QStringLiteral("<!doctype html><html lang=\"en\"><head><meta "
                                        "charset=\"utf-8\"><meta name=\"viewport\" "
                                        "content=\"width=device-width,initial-scale=1\"><title>%1 "
                                        "· Gatehouse</title><style>%2</style></head><body><main>"
                                        "%3</main></body></html>")
                             .arg(htmlEscape(title), style, bodyHtml);
    HttpResponse r = HttpResponse::text(status, html.toUtf8(), "text/html; charset=utf-8");
    r.setHeader("Cache-Control", "no-store");
    r.setHeader("X-Frame-Options", "DENY");
    r.setHeader("X-Content-Type-Options", "nosniff");
    r.setHeader("Referrer-Policy", "no-referrer");
    r.setHeader("Content-Security-Policy",
                "default-src 'none'; style-src 'unsafe-inline'; img-src https: http: data:; "
                "frame-ancestors 'none'; base-uri 'none'");
    return r;
}

namespace {

QString errorBody(const QString &code, const QString &description)
{
    return QStringLiteral("<h1>This sign-in request cannot continue</h1>"
                          "<p id=\"error-code\">%1</p><p id=\"error-description\">%2</p>")
        .arg(htmlEscape(code), htmlEscape(description));
}

} // namespace

QString signInUnavailable()
{
    return QStringLiteral("Signing in is not possible at the moment: the server cannot reach its "
                          "database. Try again in a moment.");
}

QJsonObject loginEvent(const UserStore::Attempt &a, const QString &typed)
{
    const bool known = !a.userId.isEmpty();
    return QJsonObject{{QStringLiteral("username"), known ? QJsonValue(typed) : QJsonValue()},
                       {QStringLiteral("knownUser"), known},
                       {QStringLiteral("outcome"), QLatin1String(loginOutcome(a))}};
}

const char *loginOutcome(const UserStore::Attempt &a)
{
    switch (a.outcome) {
    case UserStore::Outcome::Ok:
        return "success";
    case UserStore::Outcome::Unavailable:
        return "unavailable";
    case UserStore::Outcome::PasswordEnded:
        return "password-ended";
    case UserStore::Outcome::Wrong:
    case UserStore::Outcome::Locked:
        break;
    }
    return a.locked ? "locked" : "failure";
}

HttpResponse errorPage(int status, const QString &code, const QString &description)
{
    return htmlPage(status, QStringLiteral("Sign-in error"),
                    errorBody(code, description) +
                        QStringLiteral("<p class=\"muted\">Go back to the application and start "
                                       "again.</p>"));
}

QString redirectOrigin(const QString &uri)
{
    // The host as the browser reaches it: in punycode, never the Unicode a look-alike domain
    // shows ("xn--80ak6aa92e.com", not "аррӏе.com"). A URI without a host (a private-use
    // scheme, or a web address registered before hosts were checked, which a browser may read
    // otherwise than Qt) is shown whole.
    const QUrl url(uri);
    const QString host = url.host(QUrl::EncodeUnicode);
    if (host.isEmpty())
        return uri;
    QString origin =
        url.scheme() + QStringLiteral("://") +
        (host.contains(QLatin1Char(':')) ? QLatin1Char('[') + host + QLatin1Char(']') : host);
    if (url.port() >= 0)
        origin += QLatin1Char(':') + QString::number(url.port());
    return origin;
}

HttpResponse leavingPage(int status, const QString &title, const QString &bodyHtml,
                         const QByteArray &location)
{
    const QString target = QString::fromUtf8(location);
    return htmlPage(status, title,
                    bodyHtml + QStringLiteral("<p class=\"muted\" id=\"unvetted\">This "
                                              "application registered itself with Gatehouse: no "
                                              "administrator has checked the address it returns "
                                              "to.</p><p><a id=\"continue\" href=\"%1\">Return to "
                                              "<b id=\"continue-origin\">%2</b></a></p>")
                                   .arg(htmlEscape(target), htmlEscape(redirectOrigin(target))));
}

AuthorizeEndpoint::AuthorizeEndpoint(Core::HttpServer &server, Core::Database &database,
                                     Core::WriteQueue &writer, Core::EventBus &events,
                                     const Core::Clock &clock, const ClientRegistry &clients,
                                     UserStore &users, const SigningKeys &keys, QString issuer,
                                     AuthorizeSettings settings)
    : m_server(server), m_database(database), m_writer(writer), m_events(events), m_clock(clock),
      m_clients(clients), m_users(users), m_keys(keys), m_issuer(std::move(issuer)),
      m_settings(settings), m_secureCookies(m_issuer.startsWith(QLatin1String("https:"))),
      m_signIns(database, writer)
{
    m_signIns.setLimits({m_settings.maxInteractions, kInteractionsPerAddress, kMaxSessions});
    registerRoutes();
}

const QStringList &AuthorizeEndpoint::knownScopes()
{
    static const QStringList s{QStringLiteral("openid"),         QStringLiteral("profile"),
                               QStringLiteral("email"),          QStringLiteral("groups"),
                               QStringLiteral("offline_access"), QStringLiteral("orders:read"),
                               QStringLiteral("orders:write")};
    return s;
}

QString AuthorizeEndpoint::scopeDescription(const QString &scope)
{
    static const QHash<QString, QString> d{
        {QStringLiteral("openid"), QStringLiteral("Confirm who you are")},
        {QStringLiteral("profile"), QStringLiteral("See your name and username")},
        {QStringLiteral("email"), QStringLiteral("See your email address")},
        {QStringLiteral("groups"), QStringLiteral("See the groups you belong to")},
        {QStringLiteral("offline_access"),
         QStringLiteral("Stay signed in when you are not using it")},
        {QStringLiteral("orders:read"), QStringLiteral("See your orders")},
        {QStringLiteral("orders:write"), QStringLiteral("Place and change orders for you")}};
    return d.value(scope, QStringLiteral("Use the permission “%1”").arg(scope));
}

QString AuthorizeEndpoint::pagePath(const char *page) const
{
    return QUrl(m_issuer).path() + QStringLiteral("/oauth2/") + QLatin1String(page);
}

QByteArray AuthorizeEndpoint::cookieName(const char *name) const
{
    return m_secureCookies ? QByteArray("__Host-") + name : QByteArray(name);
}

QString AuthorizeEndpoint::cookieOf(const HttpRequest &req, const char *name) const
{
    return cookieValue(req, cookieName(name));
}

QByteArray AuthorizeEndpoint::cookie(const char *name, const QString &value, qint64 maxAgeMs) const
{
    // __Host- cookies must be Secure with Path=/ (RFC 6265bis §4.1.3.2); on plain http (a
    // development issuer) the pages' own path.
    const QByteArray path =
        m_secureCookies ? QByteArray("/") : QUrl(m_issuer).path().toUtf8() + "/oauth2";
    QByteArray c = cookieName(name) + '=' + value.toLatin1() + "; Path=" + path +
                   "; HttpOnly; SameSite=Lax; Max-Age=" + QByteArray::number(maxAgeMs / 1000);
    if (m_secureCookies)
        c += "; Secure";
    return c;
}

QString AuthorizeEndpoint::signedInAs(const QString &userId) const
{
    const auto user = m_users.findById(userId);
    if (!user)
        return {};
    return QStringLiteral(
               "<p id=\"signed-in-as\" class=\"muted\">Signed in as <strong>%1</strong>. "
               "Not you? <a href=\"%2\">Sign out</a></p>")
        .arg(htmlEscape(user->username), htmlEscape(pagePath("logout")));
}

void AuthorizeEndpoint::registerRoutes()
{
    for (const char *method : {"GET", "POST"}) {
        m_server.routeDeferred(
            method, QStringLiteral("/oauth2/authorize"),
            [this](const HttpRequest &req, const Responder &respond) { authorize(req, respond); });
    }
    m_server.route("GET", QStringLiteral("/oauth2/login"), [this](const HttpRequest &req) {
        const auto ia = interactionFor(req, {}, false);
        if (!ia)
            return errorPage(400, QStringLiteral("invalid_request"),
                             QStringLiteral("The sign-in request has expired or does not belong "
                                            "to this browser."));
        return loginPage(*ia, 200, {}, {});
    });
    // argon2id costs tens of milliseconds: the pool, not the connection's thread.
    Core::RouteOptions pool;
    pool.async = true;
    pool.isolated = true; // a flood of sign-ins holds up no token request
    pool.maxBodyBytes = 16 * 1024;
    m_server.routeDeferred(
        "POST", QStringLiteral("/oauth2/login"),
        [this](const HttpRequest &req, const Responder &respond) { login(req, respond); }, pool);
    m_server.route("GET", QStringLiteral("/oauth2/consent"), [this](const HttpRequest &req) {
        const auto ia = interactionFor(req, {}, false);
        const auto client = ia ? m_clients.find(ia->request.clientId) : std::nullopt;
        if (!ia || ia->userId.isEmpty() || !client)
            return errorPage(400, QStringLiteral("invalid_request"),
                             QStringLiteral("The sign-in request has expired or does not belong "
                                            "to this browser."));
        return consentPage(*ia, *client);
    });
    Core::RouteOptions small;
    small.maxBodyBytes = 16 * 1024;
    m_server.routeDeferred(
        "POST", QStringLiteral("/oauth2/consent"),
        [this](const HttpRequest &req, const Responder &respond) { consent(req, respond); }, small);
    registerDeviceRoutes();
    registerLogoutRoutes();
}

HttpResponse AuthorizeEndpoint::redirectError(const Request &r, const QString &error,
                                              const QString &description) const
{
    QList<QPair<QString, QString>> params{{QStringLiteral("error"), error},
                                          {QStringLiteral("error_description"), description}};
    if (!r.state.isEmpty())
        params.append({QStringLiteral("state"), r.state});
    params.append({QStringLiteral("iss"), m_issuer});
    const QByteArray location = withParams(r.redirectUri, params);
    // RFC 9700 §4.11.2: an error goes back by itself only to where an administrator vouched
    // for the client's redirect URIs; a stranger's registration would otherwise turn this
    // server's address into a link to theirs (a scope it may not have, prompt=none).
    const std::optional<Client> client = m_clients.find(r.clientId);
    if (!client)
        return errorPage(400, error, description);
    if (client->redirectsVetted())
        return seeOther(location);
    return leavingPage(400, QStringLiteral("Sign-in error"), errorBody(error, description),
                       location);
}

void AuthorizeEndpoint::authorize(const HttpRequest &req, const Responder &respond)
{
    QHash<QString, QString> p;
    QString repeated;
    bool parsed = true;
    if (req.method == "POST") {
        if (auto e = parseForm(req, &p)) {
            repeated = e->description;
            parsed = false;
        }
    } else {
        const qsizetype q = req.target.indexOf('?');
        parsed = q < 0 || parseUrlEncoded(req.target.mid(q + 1), &p, &repeated);
        if (!parsed)
            repeated = repeatedParameter(repeated);
    }
    // 1. Not redirectable: the client and its redirect URI must be certain first.
    const QString clientId = p.value(QStringLiteral("client_id"));
    if (clientId.isEmpty())
        return respond(errorPage(400, QStringLiteral("invalid_request"),
                                 parsed ? QStringLiteral("client_id is missing.") : repeated));
    const auto client = m_clients.find(clientId);
    if (!client)
        return respond(errorPage(400, QStringLiteral("invalid_request"),
                                 QStringLiteral("There is no client with this client_id.")));
    Request r;
    r.clientId = clientId;
    if (p.contains(QStringLiteral("redirect_uri"))) {
        r.redirectUri = p.value(QStringLiteral("redirect_uri"));
        r.redirectUriGiven = true;
        if (!client->allowsRedirectUri(r.redirectUri))
            return respond(errorPage(400, QStringLiteral("invalid_request"),
                                     QStringLiteral("redirect_uri is not registered for this "
                                                    "client (it must match exactly; a loopback "
                                                    "IP one may name any port).")));
    } else if (client->redirectUris.size() == 1) {
        r.redirectUri = client->redirectUris.first();
    } else {
        return respond(errorPage(400, QStringLiteral("invalid_request"),
                                 QStringLiteral("redirect_uri is required for this client.")));
    }
    r.state = p.value(QStringLiteral("state"));
    if (stateTooLong(r.state))
        return respond(errorPage(400, QStringLiteral("invalid_request"),
                                 QStringLiteral("state is longer than 2048 bytes once "
                                                "percent-encoded.")));
    // 2. Redirected errors.
    if (!parsed)
        return respond(redirectError(r, QStringLiteral("invalid_request"), repeated));
    const QString responseType = p.value(QStringLiteral("response_type"));
    if (responseType.isEmpty())
        return respond(redirectError(r, QStringLiteral("invalid_request"),
                                     QStringLiteral("response_type is required")));
    if (responseType != QLatin1String("code"))
        return respond(redirectError(r, QStringLiteral("unsupported_response_type"),
                                     QStringLiteral("only response_type=code is supported")));
    if (!client->grantTypes.contains(QStringLiteral("authorization_code")))
        return respond(redirectError(r, QStringLiteral("unauthorized_client"),
                                     QStringLiteral("authorization_code is not among this client's "
                                                    "grant_types")));
    r.scopes = p.value(QStringLiteral("scope")).split(QLatin1Char(' '), Qt::SkipEmptyParts);
    r.scopes.removeDuplicates();
    for (const QString &s : std::as_const(r.scopes))
        if (!client->scopes.contains(s))
            return respond(
                redirectError(r, QStringLiteral("invalid_scope"),
                              QStringLiteral("scope %1 is not allowed for this client")
                                  .arg(quotedToken(s, QStringLiteral("(not a scope token)")))));
    if (r.scopes.isEmpty())
        r.scopes = client->scopes;
    const QString challenge = p.value(QStringLiteral("code_challenge"));
    const bool hasMethod = p.contains(QStringLiteral("code_challenge_method"));
    const QString method = p.value(QStringLiteral("code_challenge_method"));
    if (hasMethod && method != QLatin1String("S256"))
        return respond(redirectError(r, QStringLiteral("invalid_request"),
                                     QStringLiteral("code_challenge_method must be S256 "
                                                    "(plain is not allowed)")));
    if (!challenge.isEmpty() && !hasMethod)
        return respond(redirectError(
            r, QStringLiteral("invalid_request"),
            QStringLiteral("code_challenge_method is required (the default, plain, is not "
                           "allowed)")));
    if (hasMethod && challenge.isEmpty())
        return respond(redirectError(r, QStringLiteral("invalid_request"),
                                     QStringLiteral("code_challenge is required with "
                                                    "code_challenge_method")));
    if (!challenge.isEmpty() && !challengeSyntaxOk(challenge))
        return respond(redirectError(r, QStringLiteral("invalid_request"),
                                     QStringLiteral("code_challenge must be 43 to 128 base64url "
                                                    "characters")));
    if (challenge.isEmpty() && !client->confidential())
        return respond(redirectError(
            r, QStringLiteral("invalid_request"),
            QStringLiteral("a public client must use PKCE (code_challenge with S256)")));
    r.codeChallenge = challenge;
    r.nonce = p.value(QStringLiteral("nonce"));
    if (r.nonce.size() > 512)
        return respond(redirectError(r, QStringLiteral("invalid_request"),
                                     QStringLiteral("nonce is longer than 512 characters")));
    r.prompt = p.value(QStringLiteral("prompt")).split(QLatin1Char(' '), Qt::SkipEmptyParts);
    for (const QString &v : std::as_const(r.prompt))
        if (v != QLatin1String("none") && v != QLatin1String("login") &&
            v != QLatin1String("consent"))
            return respond(
                redirectError(r, QStringLiteral("invalid_request"),
                              QStringLiteral("prompt must be none, login or consent, not %1")
                                  .arg(quotedToken(v, QStringLiteral("this value")))));
    const bool none = r.prompt.contains(QStringLiteral("none"));
    if (none && r.prompt.size() > 1)
        return respond(redirectError(r, QStringLiteral("invalid_request"),
                                     QStringLiteral("prompt=none cannot be combined")));
    // Only the query response mode (as discovery says): a client asking for form_post or
    // fragment would otherwise get its code where it does not look for it (in the URL).
    if (p.contains(QStringLiteral("response_mode")) &&
        p.value(QStringLiteral("response_mode")) != QLatin1String("query"))
        return respond(redirectError(r, QStringLiteral("invalid_request"),
                                     QStringLiteral("response_mode must be query (the only one "
                                                    "supported)")));
    // Request objects are not supported: refused, as OIDC Core §6 asks, not ignored (the
    // parameters they carry would silently not apply).
    if (p.contains(QStringLiteral("request")))
        return respond(redirectError(r, QStringLiteral("request_not_supported"),
                                     QStringLiteral("request objects are not supported")));
    if (p.contains(QStringLiteral("request_uri")))
        return respond(redirectError(r, QStringLiteral("request_uri_not_supported"),
                                     QStringLiteral("request_uri is not supported")));
    if (auto e = resourceNotTaken(p))
        return respond(redirectError(r, e->error, e->description));
    // max_age (OIDC Core §3.1.2.1): a sign-in older than this many seconds signs in again.
    qint64 maxAgeMs = -1;
    if (p.contains(QStringLiteral("max_age"))) {
        bool ok = false;
        const qint64 seconds = p.value(QStringLiteral("max_age")).toLongLong(&ok);
        if (!ok || seconds < 0)
            return respond(redirectError(r, QStringLiteral("invalid_request"),
                                         QStringLiteral("max_age must be a non-negative number "
                                                        "of seconds")));
        maxAgeMs = std::min<qint64>(seconds, 100LL * 365 * 86'400) * 1000;
    }

    // id_token_hint (OIDC Core §3.1.2.1): the user the client expects. A browser signed in as
    // somebody else signs in again (prompt=none: login_required), never answers for the other.
    QString hinted;
    if (p.contains(QStringLiteral("id_token_hint"))) {
        const auto user = hintedUser(p.value(QStringLiteral("id_token_hint")), r.clientId);
        if (!user)
            return respond(redirectError(r, QStringLiteral("invalid_request"),
                                         QStringLiteral("id_token_hint is not an id_token this "
                                                        "server issued to this client")));
        hinted = *user;
        r.hintedUser = hinted; // the sign-in that follows is for them only
    }

    // 3. Who is it, and did they agree already?
    const auto session = sessionFor(req);
    const bool tooOld =
        session && maxAgeMs >= 0 &&
        (maxAgeMs == 0 || m_clock.now().toMSecsSinceEpoch() - session->authTime > maxAgeMs);
    const bool someoneElse = session && !hinted.isEmpty() && session->userId != hinted;
    if (!session || tooOld || someoneElse || r.prompt.contains(QStringLiteral("login"))) {
        if (none)
            return respond(redirectError(
                r, QStringLiteral("login_required"),
                someoneElse
                    ? QStringLiteral("the signed-in user is not the one id_token_hint names")
                    : QStringLiteral("the user is not signed in")));
        return startInteraction(req, r, {}, 0, "login", respond);
    }
    if (r.prompt.contains(QStringLiteral("consent")) ||
        !consentCovers(session->userId, r.clientId, r.scopes)) {
        if (none)
            return respond(redirectError(r, QStringLiteral("consent_required"),
                                         QStringLiteral("the user has not consented to these "
                                                        "scopes")));
        return startInteraction(req, r, session->userId, session->authTime, "consent", respond);
    }
    finish(r, session->userId, session->authTime, false, newCode(), respond, {}, -1,
           sessionHashOf(req));
}

namespace {

HttpResponse tooManySignIns()
{
    HttpResponse busy =
        errorPage(429, QStringLiteral("temporarily_unavailable"),
                  QStringLiteral("Too many sign-ins are pending. Finish one or wait a few "
                                 "minutes, then start again from the application."));
    busy.setHeader("Retry-After", "60");
    return busy;
}

} // namespace

void AuthorizeEndpoint::startInteraction(const HttpRequest &req, const Request &r,
                                         const QString &userId, qint64 authTime, const char *page,
                                         const Responder &respond)
{
    Interaction ia;
    ia.id = Crypto::Random::token(16);
    ia.address = addressKey(req.peerAddress);
    const QString cookieValue = Crypto::Random::token(32);
    ia.cookieHash = hashCookie(cookieValue);
    ia.csrf = Crypto::Random::token(16);
    ia.request = r;
    ia.userId = userId;
    ia.authTime = authTime;
    const qint64 now = m_clock.now().toMSecsSinceEpoch();
    ia.expiresAt = now + m_settings.interactionLifetimeMs;
    // Bounded: a flood from one address is refused at its own cap, others' stay; at the
    // global cap, the heaviest address makes room for a lighter one (SignInStore::create).
    // An address at its cap is refused by a read, without loading the writer.
    if (m_signIns.pendingOf(ia.address, now) >= kInteractionsPerAddress)
        return respond(tooManySignIns());
    m_signIns.create(
        ia, now,
        [this, respond, id = ia.id, cookieValue,
         location = (pagePath(page) + QStringLiteral("?interaction=") + ia.id).toUtf8()](
            const Core::Result<bool> &stored) {
            if (!stored)
                return respond(errorPage(500, QStringLiteral("server_error"),
                                         QStringLiteral("The sign-in could not be started.")));
            if (!*stored)
                return respond(tooManySignIns());
            HttpResponse resp = seeOther(location);
            resp.headers.append({"Set-Cookie", cookie(kInteractionCookie, cookieValue,
                                                      m_settings.interactionLifetimeMs)});
            respond(resp);
        });
}

void AuthorizeEndpoint::endSessions(const QString &userId,
                                    std::function<void(Core::Result<void>)> done)
{
    m_signIns.endSessions(userId, std::move(done));
}

std::optional<Interaction> AuthorizeEndpoint::interactionFor(const HttpRequest &req,
                                                             const QHash<QString, QString> &form,
                                                             bool post)
{
    const QString id = post ? form.value(QStringLiteral("interaction"))
                            : req.query.queryItemValue(QStringLiteral("interaction"));
    const QString presented = cookieOf(req, kInteractionCookie);
    if (presented.isEmpty())
        return std::nullopt;
    auto ia = m_signIns.interaction(id, hashCookie(presented), m_clock.now().toMSecsSinceEpoch());
    if (!ia || (post && form.value(QStringLiteral("csrf")) != ia->csrf))
        return std::nullopt;
    return ia;
}

std::optional<AuthorizeEndpoint::Session> AuthorizeEndpoint::sessionFor(const HttpRequest &req)
{
    const QString hash = sessionHashOf(req);
    if (hash.isEmpty())
        return std::nullopt;
    return m_signIns.session(hash, m_clock.now().toMSecsSinceEpoch());
}

QString AuthorizeEndpoint::sessionHashOf(const HttpRequest &req) const
{
    const QString value = sessionCookieValue(req);
    return value.isEmpty() ? QString() : hashCookie(value);
}

bool AuthorizeEndpoint::consentCovers(const QString &userId, const QString &clientId,
                                      const QStringList &scopes) const
{
    // Never for a client whose redirect URIs nobody vetted (Client::redirectsVetted): the
    // consent page named where the answer goes, and its registrant may add redirect URIs since
    // (RFC 7592); each sign-in asks again, naming the address of this one.
    if (const auto client = m_clients.find(clientId); !client || !client->redirectsVetted())
        return false;
    QSqlQuery q(m_database.connection());
    q.prepare(
        QStringLiteral("SELECT scope FROM oauth_consents WHERE user_id = ? AND client_id = ?"));
    q.addBindValue(userId);
    q.addBindValue(clientId);
    if (!q.exec() || !q.next())
        return false;
    const QStringList granted = q.value(0).toString().split(QLatin1Char(' '), Qt::SkipEmptyParts);
    for (const QString &s : scopes)
        if (!granted.contains(s))
            return false;
    return true;
}

bool AuthorizeEndpoint::rateLimited(const QString &address, qint64 now, qint64 *retryAfterMs)
{
    if (m_database.engine() == Core::Database::Engine::PostgreSQL)
        return rateLimitedInDatabase(address, now, retryAfterMs);
    QMutexLocker lock(&m_mutex);
    if (m_attempts.size() > 100'000)
        m_attempts.removeIf([now](const auto &it) { return it.value().start + 60'000 <= now; });
    Window &w = m_attempts[address];
    if (w.start + 60'000 <= now)
        w = Window{now, 0};
    ++w.count;
    *retryAfterMs = w.start + 60'000 - now;
    return w.count > m_settings.loginRatePerMinute;
}

bool AuthorizeEndpoint::rateLimitedInDatabase(const QString &address, qint64 now,
                                              qint64 *retryAfterMs)
{
    // One statement, committed before the answer: every instance counts into the same window.
    QSqlQuery q(m_database.connection());
    q.prepare(QStringLiteral(
        "INSERT INTO oauth_login_rate (address, window_start, attempts) VALUES (?, ?, 1) ON "
        "CONFLICT (address) DO UPDATE SET attempts = CASE WHEN oauth_login_rate.window_start + "
        "60000 <= ? THEN 1 ELSE oauth_login_rate.attempts + 1 END, window_start = CASE WHEN "
        "oauth_login_rate.window_start + 60000 <= ? THEN ? ELSE oauth_login_rate.window_start END "
        "RETURNING window_start, attempts"));
    for (const QVariant &v :
         {QVariant(address), QVariant(now), QVariant(now), QVariant(now), QVariant(now)})
        q.addBindValue(v);
    if (!q.exec() || !q.next()) {
        // Open: the account lockout (in the database) still holds.
        qCWarning(lcOAuth) << "sign-in attempts could not be counted";
        return false;
    }
    *retryAfterMs = q.value(0).toLongLong() + 60'000 - now;
    const bool limited = q.value(1).toLongLong() > m_settings.loginRatePerMinute;
    if (++m_rateWrites % 256 == 0) // windows long past go now and then
        m_writer.submit([now](Core::WriteTransaction &tx) {
            Core::Statement &del =
                tx.stmt("DELETE FROM oauth_login_rate WHERE window_start + 60000 <= ?");
            if (!del.bind(1, now).exec())
                return Core::Result<void>(Core::WriteTransaction::sqlError(del, "login rate"));
            return Core::Result<void>();
        });
    return limited;
}

void AuthorizeEndpoint::login(const HttpRequest &req, const Responder &respond)
{
    QHash<QString, QString> form;
    if (auto e = parseForm(req, &form))
        return respond(errorPage(400, e->error, e->description));
    const auto ia = interactionFor(req, form, true);
    if (!ia)
        return respond(errorPage(400, QStringLiteral("invalid_request"),
                                 QStringLiteral("The sign-in form has expired or does not "
                                                "belong to this browser.")));
    const qint64 now = m_clock.now().toMSecsSinceEpoch();
    const QString username = form.value(QStringLiteral("username")).trimmed();
    const Interaction &interaction = *ia;
    auto tooMany = [this, interaction, username](qint64 retryMs, const QString &message) {
        HttpResponse r = loginPage(interaction, 429, message, username);
        r.setHeader("Retry-After", QByteArray::number(std::max<qint64>(1, (retryMs + 999) / 1000)));
        return r;
    };
    qint64 retryMs = 0;
    if (rateLimited(addressKey(req.peerAddress), now, &retryMs))
        return respond(tooMany(retryMs, QStringLiteral("Too many sign-in attempts from your "
                                                       "address. Wait a minute and try again.")));
    if (username.isEmpty() || username.size() > 64 ||
        form.value(QStringLiteral("password")).isEmpty())
        return respond(loginPage(interaction, 401,
                                 QStringLiteral("Enter your username and password."), username));
    const QString address = req.peerAddress.toString();
    const QString replaced = sessionHashOf(req); // the session this browser had, if any
    m_users.authenticate(
        username, form.value(QStringLiteral("password")).toUtf8(), now, m_settings.lockout,
        [this, interaction, username, address, replaced, respond,
         now](const UserStore::Attempt &a) mutable {
            QJsonObject event = loginEvent(a, username);
            event.insert(QStringLiteral("clientId"), interaction.request.clientId);
            event.insert(QStringLiteral("address"), address);
            m_events.publish(QStringLiteral("oauth.login"), event);
            if (a.outcome == UserStore::Outcome::Unavailable) {
                HttpResponse busy = loginPage(interaction, 503, signInUnavailable(), username);
                busy.setHeader("Retry-After", QByteArray::number(Core::kDatabaseRetryAfterS));
                return respond(busy);
            }
            if (a.outcome == UserStore::Outcome::Locked && a.byAdministrator)
                return respond(loginPage(interaction, 403,
                                         QStringLiteral("This account is locked by an "
                                                        "administrator."),
                                         username));
            if (a.outcome == UserStore::Outcome::PasswordEnded)
                return respond(
                    loginPage(interaction, 403, UserStore::passwordEndedMessage(), username));
            // Locked after failed sign-ins: the answer to a wrong password (UserStore::signIn).
            if (a.outcome != UserStore::Outcome::Ok)
                return respond(loginPage(interaction, 401,
                                         QStringLiteral("Wrong username or password."), username));
            // The application asked for one user (id_token_hint, OIDC Core §3.1.2.1): another
            // one's sign-in answers nothing to it (a step-up check would take them for the
            // one it named). Nothing is stored; the right user may sign in on this page.
            if (const QString &hinted = interaction.request.hintedUser;
                !hinted.isEmpty() && hinted != a.user.id)
                return respond(loginPage(interaction, 403,
                                         QStringLiteral("The application asked for another "
                                                        "account: sign in as the user it named."),
                                         username));
            // Signed in, if the sign-in is still pending (an administrator may have ended this
            // user's sessions meanwhile: then no session and no code). A browser session, then
            // consent (unless remembered) and the code.
            const Request &r = interaction.request;
            const bool consentNeeded = r.prompt.contains(QStringLiteral("consent")) ||
                                       !consentCovers(a.user.id, r.clientId, r.scopes);
            const NewSession session = newSession();
            const NewCode code = consentNeeded ? NewCode{} : newCode();
            m_signIns.signIn(
                interaction.id, a.user.id, a.user.updatedAt, now, session.hash, replaced,
                now + m_settings.sessionLifetimeMs, !consentNeeded,
                [this, interaction, consentNeeded, session, code, userId = a.user.id,
                 userUpdatedAt = a.user.updatedAt, now,
                 respond](const Core::Result<bool> &pending) {
                    if (!pending)
                        return respond(errorPage(500, QStringLiteral("server_error"),
                                                 QStringLiteral("The sign-in could not be "
                                                                "stored.")));
                    if (!*pending)
                        return respond(errorPage(400, QStringLiteral("invalid_request"),
                                                 QStringLiteral("The sign-in request has "
                                                                "ended.")));
                    if (consentNeeded) {
                        HttpResponse resp = seeOther(
                            (pagePath("consent") + QStringLiteral("?interaction=") + interaction.id)
                                .toUtf8());
                        resp.headers.append({"Set-Cookie", session.setCookie});
                        return respond(resp);
                    }
                    finish(interaction.request, userId, now, false, code, respond,
                           {session.setCookie}, userUpdatedAt, session.hash);
                });
        });
}

AuthorizeEndpoint::NewSession AuthorizeEndpoint::newSession() const
{
    const QString value = Crypto::Random::token(32);
    return {hashCookie(value), cookie(kSessionCookie, value, m_settings.sessionLifetimeMs), value};
}

QString AuthorizeEndpoint::deviceConfirmToken(const QString &sessionValue, const QString &userCode)
{
    if (sessionValue.isEmpty())
        return {};
    return QString::fromLatin1(
        Crypto::Digest::hmacSha256(sessionValue.toUtf8(),
                                   {"gatehouse device confirm\n", userCode.toUtf8()})
            .toBase64(QByteArray::Base64UrlEncoding | QByteArray::OmitTrailingEquals));
}

std::optional<QJsonObject> AuthorizeEndpoint::hintClaims(const QString &idToken) const
{
    if (idToken.size() > 16 * 1024)
        return std::nullopt;
    const auto verified = Crypto::Jws::verifyWithJwks(idToken.toUtf8(), m_keys.jwks());
    if (!verified)
        return std::nullopt;
    // An id_token (typ JWT), not an access token (at+jwt) nor anything else signed here.
    const QString typ = verified->header.value(QLatin1String("typ")).toString();
    if (typ.compare(QLatin1String("JWT"), Qt::CaseInsensitive) != 0)
        return std::nullopt;
    QJsonObject claims = QJsonDocument::fromJson(verified->payload).object();
    if (claims.value(QLatin1String("iss")).toString() != m_issuer ||
        claims.value(QLatin1String("sub")).toString().isEmpty())
        return std::nullopt;
    return claims;
}

std::optional<QString> AuthorizeEndpoint::hintedUser(const QString &idToken,
                                                     const QString &clientId) const
{
    const auto claims = hintClaims(idToken);
    if (!claims)
        return std::nullopt;
    const QJsonValue aud = claims->value(QLatin1String("aud"));
    bool forClient = aud.toString() == clientId;
    for (const QJsonValue a : aud.toArray())
        forClient = forClient || a.toString() == clientId;
    if (!forClient)
        return std::nullopt;
    return claims->value(QLatin1String("sub")).toString();
}

QString AuthorizeEndpoint::hintedClient(const QString &idToken) const
{
    // This server's id_tokens name their client as the one audience (a string).
    const auto claims = hintClaims(idToken);
    return claims ? claims->value(QLatin1String("aud")).toString() : QString();
}

QString AuthorizeEndpoint::sessionCookieValue(const HttpRequest &req) const
{
    return cookieOf(req, kSessionCookie);
}

QByteArray AuthorizeEndpoint::sessionCookieCleared() const
{
    return cookie(kSessionCookie, {}, 0);
}

void AuthorizeEndpoint::consent(const HttpRequest &req, const Responder &respond)
{
    QHash<QString, QString> form;
    if (auto e = parseForm(req, &form))
        return respond(errorPage(400, e->error, e->description));
    const auto ia = interactionFor(req, form, true);
    if (!ia || ia->userId.isEmpty())
        return respond(errorPage(400, QStringLiteral("invalid_request"),
                                 QStringLiteral("The consent form has expired or does not "
                                                "belong to this browser.")));
    // The user of a consent page signed in (here or before) with a browser session, which
    // must still be there: a page left open after a sign-out (another tab, a shared computer)
    // gives the next person nothing.
    const QString sessionHash = sessionHashOf(req);
    if (sessionHash.isEmpty())
        return respond(errorPage(400, QStringLiteral("invalid_request"),
                                 QStringLiteral("You are signed out. Start again from the "
                                                "application.")));
    const bool allow = form.value(QStringLiteral("decision")) == QLatin1String("allow");
    // Single use: of two submissions (or two instances) only the one that removes it goes on.
    const NewCode code = allow ? newCode() : NewCode{};
    m_signIns.consume(ia->id, [this, ia = *ia, allow, code, sessionHash,
                               respond](const Core::Result<bool> &removed) {
        if (!removed)
            return respond(errorPage(500, QStringLiteral("server_error"),
                                     QStringLiteral("The consent could not be stored.")));
        if (!*removed)
            return respond(errorPage(400, QStringLiteral("invalid_request"),
                                     QStringLiteral("The consent form has expired or does not "
                                                    "belong to this browser.")));
        if (allow)
            return finish(ia.request, ia.userId, ia.authTime, true, code, respond, {}, -1,
                          sessionHash);
        // A refusal goes back to the application only where it still may be sent, as a code
        // does (finish): not to a redirect URI an administrator removed meanwhile, nor for a
        // client that is gone.
        const std::optional<Client> client = m_clients.find(ia.request.clientId);
        if (!client || !client->allowsRedirectUri(ia.request.redirectUri))
            return respond(errorPage(400, QStringLiteral("access_denied"),
                                     QStringLiteral("You denied the request. The application's "
                                                    "redirect URI is no longer registered, so "
                                                    "it is not told.")));
        respond(redirectError(ia.request, QStringLiteral("access_denied"),
                              QStringLiteral("the user denied the request")));
    });
}

AuthorizeEndpoint::NewCode AuthorizeEndpoint::newCode()
{
    const QString code = Crypto::Random::token(32);
    return {code, TokenIssuer::hashToken(code)};
}

void AuthorizeEndpoint::finish(const Request &request, const QString &userId, qint64 authTime,
                               bool rememberConsent, const NewCode &newCode,
                               const Responder &respond, const QList<QByteArray> &cookies,
                               qint64 userUpdatedAt, const QString &sessionHash)
{
    // The client as it is now: a sign-in started before an administrator removed its redirect
    // URI, a scope or the client itself ends without them (no code is sent to a URI the client
    // no longer has, none carries a scope it lost).
    const std::optional<Client> client = m_clients.find(request.clientId);
    if (!client || !client->allowsRedirectUri(request.redirectUri))
        return respond(errorPage(400, QStringLiteral("invalid_request"),
                                 QStringLiteral("The application's redirect URI is no longer "
                                                "registered. Start again from the "
                                                "application.")));
    Request r = request;
    r.scopes.removeIf([&client](const QString &s) { return !client->scopes.contains(s); });
    const QString code = newCode.code;
    const QString codeHash = newCode.hash;
    const qint64 now = m_clock.now().toMSecsSinceEpoch();
    const qint64 expiresAt = now + m_settings.codeLifetimeMs;
    // Never null (a client without scopes): the columns are NOT NULL, and null binds NULL.
    const QString scope = r.scopes.isEmpty() ? QStringLiteral("") : r.scopes.join(QLatin1Char(' '));
    m_writer.submit(
        [r, userId, authTime, rememberConsent, codeHash, now, expiresAt, scope, userUpdatedAt,
         sessionHash](Core::WriteTransaction &tx) -> Core::Result<void> {
            // No code for a user an administrator deleted, locked or (since their password was
            // checked) changed meanwhile.
            if (const QString refused = UserStore::refusal(tx, userId, userUpdatedAt);
                !refused.isEmpty())
                return Core::Error{QStringLiteral("access_denied"), refused, 403};
            if (!sessionHash.isEmpty()) {
                Core::Statement &s = tx.stmt("SELECT 1 FROM oauth_sessions WHERE hash = ? AND "
                                             "user_id = ? AND expires_at > ?");
                const bool held = s.bind(1, sessionHash).bind(2, userId).bind(3, now).next();
                if (!s.ok())
                    return Core::WriteTransaction::sqlError(s, "read session");
                if (!held)
                    return Core::Error{QStringLiteral("access_denied"),
                                       QStringLiteral("the browser session has ended"), 403};
                s.next(); // done with it
            }
            if (rememberConsent) {
                // The union with what was granted before.
                Core::Statement &old =
                    tx.stmt("SELECT scope FROM oauth_consents WHERE user_id = ? AND client_id = ?");
                old.bind(1, userId).bind(2, r.clientId);
                QStringList scopes = r.scopes;
                if (old.next())
                    scopes += old.text(0).split(QLatin1Char(' '), Qt::SkipEmptyParts);
                scopes.removeDuplicates();
                Core::Statement &c = tx.stmt(
                    "INSERT INTO oauth_consents (user_id, client_id, scope, granted_at) VALUES "
                    "(?, ?, ?, ?) ON CONFLICT (user_id, client_id) DO UPDATE SET scope = "
                    "excluded.scope, granted_at = excluded.granted_at");
                c.bind(1, userId).bind(2, r.clientId);
                c.bind(3, scopes.isEmpty() ? QStringLiteral("") : scopes.join(QLatin1Char(' ')));
                if (!c.bind(4, now).exec())
                    return Core::WriteTransaction::sqlError(c, "remember consent");
            }
            Core::Statement &q = tx.stmt(
                "INSERT INTO oauth_codes (hash, client_id, user_id, redirect_uri, scope, nonce, "
                "code_challenge, auth_time, issued_at, expires_at, implied_redirect_uri, "
                "session_hash) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
            q.bind(1, codeHash).bind(2, r.clientId).bind(3, userId);
            if (r.redirectUriGiven)
                q.bind(4, r.redirectUri).bindNull(11);
            else
                q.bindNull(4).bind(11, r.redirectUri);
            q.bind(5, scope).bindTextOrNull(6, r.nonce).bindTextOrNull(7, r.codeChallenge);
            q.bind(8, authTime).bind(9, now).bind(10, expiresAt).bindTextOrNull(12, sessionHash);
            if (!q.exec())
                return Core::WriteTransaction::sqlError(q, "store code");
            return {};
        },
        [this, r, code, cookies, respond](const Core::Result<void> &res) {
            if (!res && res.error().code == QLatin1String("access_denied"))
                return respond(redirectError(r, QStringLiteral("access_denied"),
                                             QStringLiteral("the sign-in has ended; sign in "
                                                            "again")));
            if (!res)
                return respond(redirectError(r, QStringLiteral("server_error"),
                                             QStringLiteral("the code could not be stored")));
            QList<QPair<QString, QString>> params{{QStringLiteral("code"), code}};
            if (!r.state.isEmpty())
                params.append({QStringLiteral("state"), r.state});
            params.append({QStringLiteral("iss"), m_issuer});
            HttpResponse resp = seeOther(withParams(r.redirectUri, params));
            for (const QByteArray &c : cookies)
                resp.headers.append({"Set-Cookie", c});
            respond(resp);
        });
}

HttpResponse AuthorizeEndpoint::loginPage(const Interaction &ia, int status, const QString &error,
                                          const QString &username) const
{
    const auto client = m_clients.find(ia.request.clientId);
    const QString clientName = client ? client->clientName : ia.request.clientId;
    QString body = QStringLiteral("<h1>Sign in</h1><p class=\"muted\">to continue to "
                                  "<strong id=\"client-name\"><bdi>%1</bdi></strong></p>")
                       .arg(htmlEscape(clientName));
    if (!error.isEmpty())
        body += QStringLiteral("<p class=\"error\" role=\"alert\">%1</p>").arg(htmlEscape(error));
    body += QStringLiteral("<form id=\"login-form\" method=\"post\" action=\"%1\">%2%3"
                           "<label for=\"username\">Username</label>"
                           "<input id=\"username\" name=\"username\" type=\"text\" "
                           "autocomplete=\"username\" required autofocus value=\"%4\">"
                           "<label for=\"password\">Password</label>"
                           "<input id=\"password\" name=\"password\" type=\"password\" "
                           "autocomplete=\"current-password\" required>"
                           "<button id=\"login-submit\" type=\"submit\">Sign in</button></form>")
                .arg(htmlEscape(pagePath("login")), hiddenInput("interaction", ia.id),
                     hiddenInput("csrf", ia.csrf), htmlEscape(username));
    return htmlPage(status, QStringLiteral("Sign in"), body);
}

HttpResponse AuthorizeEndpoint::consentPage(const Interaction &ia, const Client &client) const
{
    QString body;
    if (!client.logoUri.isEmpty())
        body += QStringLiteral("<img id=\"client-logo\" class=\"logo\" src=\"%1\" alt=\"\">")
                    .arg(htmlEscape(client.logoUri));
    body += QStringLiteral("<h1><bdi id=\"client-name\">%1</bdi> wants to access your "
                           "account</h1><p>It asks to:</p><ul id=\"scopes\">")
                .arg(htmlEscape(client.clientName));
    for (const QString &s : ia.request.scopes)
        body += QStringLiteral("<li data-scope=\"%1\">%2 <span class=\"muted\">(<code>%1"
                               "</code>)</span></li>")
                    .arg(htmlEscape(s), htmlEscape(scopeDescription(s)));
    body += QStringLiteral("</ul>") + signedInAs(ia.userId);
    // Where the answer goes, for a client whose redirect URIs nobody here checked (the code
    // follows Allow without another page: the user decides knowing where it goes).
    if (!client.redirectsVetted())
        body += QStringLiteral("<p class=\"muted\" id=\"redirect-origin\">Either way you "
                               "return to <b>%1</b>. This application registered itself: no "
                               "administrator has checked that address.</p>")
                    .arg(htmlEscape(redirectOrigin(ia.request.redirectUri)));
    body += QStringLiteral("<form id=\"consent-form\" method=\"post\" action=\"%1\">%2%3"
                           "<button id=\"consent-allow\" name=\"decision\" value=\"allow\" "
                           "type=\"submit\">Allow</button><button id=\"consent-deny\" "
                           "class=\"secondary\" name=\"decision\" value=\"deny\" "
                           "type=\"submit\">Deny</button></form><p class=\"muted\">You can "
                           "withdraw this consent later.</p>")
                .arg(htmlEscape(pagePath("consent")), hiddenInput("interaction", ia.id),
                     hiddenInput("csrf", ia.csrf));
    return htmlPage(200, QStringLiteral("Allow access"), body);
}

} // namespace Gatehouse::OAuth
