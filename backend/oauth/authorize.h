#pragma once

#include "core/httpserver.h"
#include "oauth/signinstore.h"
#include "oauth/userstore.h"

#include <QHash>
#include <QHostAddress>
#include <QMutex>
#include <QStringList>

#include <atomic>
#include <functional>
#include <optional>

namespace Gatehouse::Core {
class Clock;
class Database;
class EventBus;
class WriteQueue;
} // namespace Gatehouse::Core

namespace Gatehouse::OAuth {

class ClientRegistry;
class SigningKeys;
struct Client;

struct AuthorizeSettings
{
    LockoutPolicy lockout;
    int loginRatePerMinute = 20; // login attempts per client address
    qint64 codeLifetimeMs = 60'000;
    qint64 deviceCodeLifetimeMs = 10 * 60'000;
    qint64 refreshLifetimeMs = 14LL * 24 * 3600 * 1000;
    qint64 refreshMaxLifetimeMs = 90LL * 24 * 3600 * 1000; // from the sign-in; 0: none
    bool openRegistration = false; // RFC 7591 without an initial access token
    qint64 sessionLifetimeMs = 8LL * 3600 * 1000;
    qint64 interactionLifetimeMs = 10 * 60'000;
    int maxInteractions = 10'000; // pending sign-ins from all addresses (oauth-pending-sign-ins)
    Crypto::Password::Parameters passwordHashing; // password-hash-memory, -iterations
};

// The authorization endpoint (RFC 6749 §4.1, PKCE RFC 7636, RFC 9207 `iss`) with its
// server-rendered login and consent pages (docs/oauth.md, "Authorization endpoint").
// Pending sign-ins, browser sessions, codes and consents live in the database (SignInStore):
// a sign-in started on one instance finishes on another. So do the sign-in attempt counts
// per address on PostgreSQL (rateLimited).
class AuthorizeEndpoint
{
public:
    AuthorizeEndpoint(Core::HttpServer &server, Core::Database &database, Core::WriteQueue &writer,
                      Core::EventBus &events, const Core::Clock &clock,
                      const ClientRegistry &clients, UserStore &users, const SigningKeys &keys,
                      QString issuer, AuthorizeSettings settings);

    static const QStringList &knownScopes();
    static QString scopeDescription(const QString &scope);
    // Signs the user out of every browser (deleted, locked, password reset by an
    // administrator) and drops their pending sign-ins; done once committed.
    void endSessions(const QString &userId, std::function<void(Core::Result<void>)> done);
    // Pending interactions one client address may hold at once (then 429). When all addresses
    // together hold settings.maxInteractions, the address holding the most (if more than the
    // newcomer's) gives up its oldest: a flood from many addresses cannot lock everyone out.
    static constexpr int kInteractionsPerAddress = 100;
    // Sign-in attempts per client address (oauth-login-rate a minute): true, and the wait,
    // when over. Shared by the login and device pages and the password grant.
    // On PostgreSQL counted in the database (oauth_login_rate), so that every instance counts
    // into one window; on SQLite (one instance) in memory.
    bool rateLimited(const QString &address, qint64 now, qint64 *retryAfterMs);

private:
    using Request = SignInRequest;
    using Session = BrowserSession;
    struct Window
    {
        qint64 start = 0;
        int count = 0;
    };

    void registerRoutes();
    void authorize(const Core::HttpRequest &req, const Core::Responder &respond);
    void login(const Core::HttpRequest &req, const Core::Responder &respond);
    void consent(const Core::HttpRequest &req, const Core::Responder &respond);
    // A new browser session cookie: its value, and the hash that is stored.
    struct NewSession
    {
        QString hash;
        QByteArray setCookie;
        QString value; // the cookie's value: never stored, never logged
    };
    NewSession newSession() const;
    // The confirm form's CSRF token: keyed by the browser session's own (HttpOnly) cookie and
    // bound to the code shown, so that neither a cookie planted by a sibling site nor another
    // code's form approves anything; checked on any instance (nothing is stored).
    static QString deviceConfirmToken(const QString &sessionValue, const QString &userCode);
    // The browser session cookie's value: empty when absent or sent more than once (a cookie a
    // sibling site planted beside the real one is never taken for it).
    QString sessionCookieValue(const Core::HttpRequest &req) const;
    QByteArray sessionCookieCleared() const; // Set-Cookie that ends the browser's session cookie
    // OpenID Connect RP-Initiated Logout 1.0: /oauth2/logout (logoutpage.cpp).
    void registerLogoutRoutes();
    void logout(const Core::HttpRequest &req, const Core::Responder &respond);
    // The confirm form's CSRF token, keyed by the browser session's own (HttpOnly) cookie.
    static QString logoutToken(const QString &sessionValue);
    // The client an id_token_hint was issued to: an id_token this server signed (with a key it
    // still publishes), expired or not; empty otherwise.
    QString hintedClient(const QString &idToken) const;
    // RFC 8628 §3.3 user verification: enter the code, sign in if needed, approve or deny.
    void registerDeviceRoutes();
    void deviceSubmit(const Core::HttpRequest &req, const Core::Responder &respond);
    void deviceConfirm(const Core::HttpRequest &req, const Core::Responder &respond);
    Core::HttpResponse devicePage(int status, const QString &csrf, const QString &userCode,
                                  bool signedIn, const QString &error) const;
    Core::HttpResponse deviceConfirmPage(const QString &confirmToken, const QString &userCode,
                                         const QString &clientId, const QStringList &scopes,
                                         const QString &userId) const;
    // An authorization code and its hash, drawn on the request's thread: the writer's thread,
    // where the continuations of SignInStore run, does no cryptography.
    struct NewCode
    {
        QString code;
        QString hash;
    };
    static NewCode newCode();
    // After login and consent: stores the code (and the consent), redirects with it.
    // userUpdatedAt (>= 0): the user as read when the password was checked (UserStore::refusal).
    // sessionHash (not empty): the browser session the sign-in rests on, which must still be
    // stored when the code is (a new password or a lock ends it in its own transaction).
    void finish(const Request &request, const QString &userId, qint64 authTime,
                bool rememberConsent, const NewCode &code, const Core::Responder &respond,
                const QList<QByteArray> &cookies = {}, qint64 userUpdatedAt = -1,
                const QString &sessionHash = {});

    Core::HttpResponse redirectError(const Request &r, const QString &error,
                                     const QString &description) const;
    void startInteraction(const Core::HttpRequest &req, const Request &r, const QString &userId,
                          qint64 authTime, const char *page, const Core::Responder &respond);
    // The interaction named by the request (query or form) whose cookie and, for a POST,
    // csrf field match; nullopt otherwise.
    std::optional<Interaction> interactionFor(const Core::HttpRequest &req,
                                              const QHash<QString, QString> &form, bool post);
    std::optional<Session> sessionFor(const Core::HttpRequest &req);
    // The stored hash of the request's browser session cookie (empty without one).
    QString sessionHashOf(const Core::HttpRequest &req) const;
    bool consentCovers(const QString &userId, const QString &clientId,
                       const QStringList &scopes) const;
    QByteArray cookie(const char *name, const QString &value, qint64 maxAgeMs) const;
    // A cookie's name: with the __Host- prefix on an https issuer (Secure, Path=/, no Domain:
    // a sibling subdomain cannot set one, so it cannot plant its own session in a browser).
    QByteArray cookieName(const char *name) const;
    // The request's cookie of that name (cookieName), empty when absent or repeated.
    QString cookieOf(const Core::HttpRequest &req, const char *name) const;
    // "Signed in as NAME. Not you? Sign out": the consent and device pages name the account
    // whose session the browser presents.
    QString signedInAs(const QString &userId) const;
    QString pagePath(const char *page) const;

    Core::HttpResponse loginPage(const Interaction &ia, int status, const QString &error,
                                 const QString &username) const;
    Core::HttpResponse consentPage(const Interaction &ia, const Client &client) const;
    // The user an id_token_hint names (its sub): an id_token this server signed (with a key it
    // still publishes) for clientId, expired or not (OIDC Core §3.1.2.1); nullopt otherwise.
    std::optional<QString> hintedUser(const QString &idToken, const QString &clientId) const;
    // The claims of an id_token this server signed (with a key it still publishes), expired or
    // not; nullopt otherwise.
    std::optional<QJsonObject> hintClaims(const QString &idToken) const;

    Core::HttpServer &m_server;
    Core::Database &m_database;
    Core::WriteQueue &m_writer;
    Core::EventBus &m_events;
    const Core::Clock &m_clock;
    const ClientRegistry &m_clients;
    UserStore &m_users;
    const SigningKeys &m_keys;
    QString m_issuer;
    AuthorizeSettings m_settings;
    bool m_secureCookies = false;

    bool rateLimitedInDatabase(const QString &address, qint64 now, qint64 *retryAfterMs);

    SignInStore m_signIns;
    std::atomic<quint64> m_rateWrites{0};
    QMutex m_mutex;
    QHash<QString, Window> m_attempts; // login attempts by client address
};

// The key a client address counts under for the per-address limits: an IPv4 address (also
// IPv4-mapped), or the /64 network of an IPv6 address (one host usually holds a whole /64).
QString addressKey(const QHostAddress &address);

// An HTML page of the authorization server (login, consent, errors): escaped values only,
// no scripts, framing refused.
Core::HttpResponse htmlPage(int status, const QString &title, const QString &bodyHtml);
Core::HttpResponse errorPage(int status, const QString &code, const QString &description);
// The sign-in pages' words and event outcome for an attempt (UserStore::signIn).
QString signInUnavailable();
const char *loginOutcome(const UserStore::Attempt &a);
// The oauth.login event's own members: the outcome, and the name typed only when it named a
// user (a password typed into the username field, a common slip, went to every oauth:read
// holder's event stream and its history). The caller adds clientId, address, via.
QJsonObject loginEvent(const UserStore::Attempt &a, const QString &typed);
QString htmlEscape(const QString &s);
QString hiddenInput(const char *name, const QString &value);
// Appends parameters to a redirect URI (which has no fragment), each value percent-encoded
// except the unreserved characters.
QByteArray withParams(const QString &uri, const QList<QPair<QString, QString>> &params);
// Whether a client's `state` is too long to go back in a redirect: more than 2,048 bytes once
// percent-encoded (what the Location header carries; 2,048 reserved characters made 6 KB,
// more than a proxy's default 4 KB header buffer: nginx answered 502 and took the instance out
// of its upstreams). Such a request is answered by an error page, never a redirect.
bool stateTooLong(const QString &state);
// 303 See Other to `location`, not cached.
Core::HttpResponse seeOther(const QByteArray &location);
// The scheme, host and port of a redirect URI, as a page shows where a link goes.
QString redirectOrigin(const QString &uri);
// A page (htmlPage) that ends with a link to `location` instead of redirecting there: for a
// client whose redirect URIs no administrator vouched for (Client::redirectsVetted).
Core::HttpResponse leavingPage(int status, const QString &title, const QString &bodyHtml,
                               const QByteArray &location);

// RFC 8628 user codes: 8 letters without vowels (no words), shown as XXXX-XXXX; entered in
// any case, with or without the dash or spaces.
QString newUserCode();
QString normalizeUserCode(const QString &entered);
inline QString formatUserCode(const QString &c)
{
    return c.left(4) + QLatin1Char('-') + c.mid(4);
}

} // namespace Gatehouse::OAuth
