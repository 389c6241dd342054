#pragma once

#include "core/database.h"
#include "core/result.h"

#include <QString>
#include <QStringList>

#include <functional>
#include <optional>

namespace Gatehouse::Core {
class WriteQueue;
} // namespace Gatehouse::Core

namespace Gatehouse::OAuth {

// What /authorize was asked, kept while the user signs in and consents.
struct SignInRequest
{
    QString clientId;
    QString redirectUri;
    bool redirectUriGiven = false;
    QStringList scopes;
    QString state;
    QString nonce;
    QString codeChallenge;
    QStringList prompt;
    QString hintedUser; // the user id_token_hint names (empty: none): only they may sign in
};

// A pending sign-in (login, then consent). The cookie itself is never stored: its SHA-256 is.
struct Interaction
{
    QString id;
    QString address;    // the client address key that started it (addressKey())
    QString cookieHash; // of the gh_interaction cookie that belongs to it
    QString csrf;
    SignInRequest request;
    QString userId; // set once the user signed in during this interaction
    qint64 authTime = 0;
    qint64 expiresAt = 0;
};

// A browser session (the gh_session cookie, stored as its SHA-256).
struct BrowserSession
{
    QString userId;
    qint64 authTime = 0;
    qint64 expiresAt = 0;
};

// Pending sign-ins and browser sessions of the authorization endpoint, in the database: a
// sign-in started on one instance finishes on another, and both outlive a restart
// (docs/oauth.md, "Sessions"). Writes go through the writer and answer once committed; reads
// use the calling thread's connection.
class SignInStore
{
public:
    SignInStore(Core::Database &database, Core::WriteQueue &writer);
    static Core::Migration migration(); // schema version 19

    struct Limits
    {
        int total = 10'000;     // pending sign-ins from all addresses
        int perAddress = 100;   // pending sign-ins of one address
        int sessions = 100'000; // browser sessions (the oldest goes first)
        // Browser sessions of one user (their oldest goes first): one account signed in from
        // many addresses does not push everyone else's sessions out of the cap above.
        int sessionsPerUser = 64;
    };
    void setLimits(Limits limits) { m_limits = limits; }

    // Stores a new pending sign-in. Expired ones go first; at its address's cap it is
    // refused; at the global cap the address holding the most (if more than this one's)
    // gives up its oldest. done(true) stored, done(false) refused (429).
    void create(const Interaction &ia, qint64 now, std::function<void(Core::Result<bool>)> done);
    // Unexpired pending sign-ins of a client address (a read: create() counts again).
    int pendingOf(const QString &address, qint64 now);
    // The pending sign-in `id` whose cookie hashes to `cookieHash`, unexpired.
    std::optional<Interaction> interaction(const QString &id, const QString &cookieHash,
                                           qint64 now);
    // The user signed in during sign-in `id`: a browser session `sessionHash` is stored, and
    // the sign-in is marked signed in (or, when `finished`, removed: no consent follows).
    // done(false) when the sign-in ended meanwhile (expired, consumed, the user's sessions
    // ended, the user deleted, locked or changed by an administrator since `userUpdatedAt`, the
    // user's User::updatedAt as read when the password was checked): no session then.
    // `replacedHash` is the browser's session before (its cookie, or empty): the new one
    // replaces it (replaceSession() in the .cpp).
    void signIn(const QString &id, const QString &userId, qint64 userUpdatedAt, qint64 now,
                const QString &sessionHash, const QString &replacedHash, qint64 sessionExpiresAt,
                bool finished, std::function<void(Core::Result<bool>)> done);
    // Removes sign-in `id` (single use); done(true) if this call removed it.
    void consume(const QString &id, std::function<void(Core::Result<bool>)> done);
    // A browser session outside a sign-in (the device page); done(false) when the user was
    // deleted, locked or changed by an administrator meanwhile (no session).
    void createSession(const QString &sessionHash, const QString &replacedHash,
                       const QString &userId, qint64 userUpdatedAt, qint64 now, qint64 expiresAt,
                       std::function<void(Core::Result<bool>)> done);
    std::optional<BrowserSession> session(const QString &sessionHash, qint64 now);
    // The same, telling a read that failed (database-unavailable while the database cannot be
    // reached) from no session: sign-out must not say "signed out" when it could not look.
    Core::Result<std::optional<BrowserSession>> lookupSession(const QString &sessionHash,
                                                              qint64 now);
    // Signs the user out of every browser and drops their pending sign-ins.
    void endSessions(const QString &userId, std::function<void(Core::Result<void>)> done);
    // Ends one browser session (a sign-out, /oauth2/logout) and what its sign-ins issued: the
    // tokens of the codes issued in it (their refresh families and exchanges: code_hash), unless
    // the code granted offline_access, and its codes not yet redeemed. Resolves to the tokens
    // revoked.
    void endSession(const QString &sessionHash, qint64 now,
                    std::function<void(Core::Result<int>)> done);

private:
    Core::Database &m_database;
    Core::WriteQueue &m_writer;
    Limits m_limits;
};

} // namespace Gatehouse::OAuth
