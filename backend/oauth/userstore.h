#pragma once

#include "core/result.h"
#include "crypto/password.h"

#include <QJsonObject>
#include <QStringList>

#include <functional>
#include <mutex>
#include <optional>

namespace Gatehouse::Core {
class Clock;
class Database;
class WriteQueue;
class WriteTransaction;
} // namespace Gatehouse::Core

namespace Gatehouse::OAuth {

// A resource owner (docs/oauth.md, "Users"). The password hash never leaves the store.
struct User
{
    QString id; // UUID, the `sub` of this user's tokens
    QString username;
    QString email;
    bool emailVerified = false;
    QString name;
    QStringList groups;
    int failedLogins = 0;
    qint64 lockedUntil = 0; // ms; 0: not locked
    qint64 createdAt = 0;
    // ms; an administrator's change of the user (a grant compares it, as read when it decided,
    // in the transaction that stores its tokens: UserStore::refusal)
    qint64 updatedAt = 0;
    // When the password stops signing the user in (ms; 0: never): set by an expiring admin
    // token that set it, to its end (docs/admin-tokens.md), and nothing signed in with it
    // lasts past that; a new password set without such a bound lifts it.
    qint64 passwordUntil = 0;
    bool passwordEnded(qint64 now) const { return passwordUntil > 0 && now >= passwordUntil; }

    // An administrator's lock lasts until unlocked (year 9999).
    static constexpr qint64 kLockedByAdministrator = 253'402'300'799'000;
    bool locked(qint64 now) const { return lockedUntil > now; }
    bool lockedByAdministrator() const { return lockedUntil >= kLockedByAdministrator; }
    QJsonObject toJson(qint64 now) const;
};

// Changes from an admin request; unset members stay as they are.
struct UserInput
{
    std::optional<QString> username;
    std::optional<QByteArray> password;
    std::optional<QString> email;
    std::optional<bool> emailVerified;
    std::optional<QString> name;
    std::optional<QStringList> groups;
    // Not from the body: the bound of the admin token that sets the password (its end; 0:
    // none), User::passwordUntil.
    qint64 passwordUntil = 0;

    // Validates a POST (create: username and password required) or PATCH body; errors are
    // 400 validation-failed naming the field.
    static Core::Result<UserInput> fromJson(const QJsonObject &o, bool create);
};

struct LockoutPolicy
{
    int threshold = 5;               // consecutive failures that lock the account
    qint64 durationMs = 15 * 60'000; // how long it stays locked
};

class UserStore
{
public:
    UserStore(Core::Database &database, Core::WriteQueue &writer, const Core::Clock &clock,
              Crypto::Password::Parameters hashing = {});

    // The argon2id hashing runs in the calling thread (call from a pool thread).
    void create(const UserInput &input, std::function<void(Core::Result<User>)> done);
    // Changing the password revokes every token held for the user (an administrator's reset
    // ends what the old password got); the caller ends the browser sessions.
    void update(const QString &idOrName, const UserInput &input,
                std::function<void(Core::Result<User>)> done);
    // Deletes the user, their consents, and revokes their tokens; done gets the user's id.
    void remove(const QString &idOrName, std::function<void(Core::Result<QString>)> done);
    void unlock(const QString &idOrName, std::function<void(Core::Result<User>)> done);
    // An administrator's lock: until unlocked, and every token held for the user is revoked.
    void lock(const QString &idOrName, std::function<void(Core::Result<User>)> done);

    std::optional<User> find(const QString &idOrName) const;
    // The same, telling a read that failed (database-unavailable while the database cannot be
    // reached) from no such user: the admin API's checks before a change fail closed on it.
    Core::Result<std::optional<User>> lookup(const QString &idOrName) const;
    // By id only: for a subject this server recorded (a token's, a code's), which is a user's
    // id or a client's, never a username.
    std::optional<User> findById(const QString &id) const;
    // findById telling a read that failed from no such user (lookup, above).
    Core::Result<std::optional<User>> lookupById(const QString &id) const;
    // A read that failed is an error, not an empty list.
    Core::Result<QList<User>> all() const;

    // Remembered consents: {userId, username, clientId, scope, grantedAt}, optionally for
    // one user and/or one client. Revoking one makes the next authorization ask again, and
    // revokes what was issued under it (the user's tokens for that client).
    QList<QJsonObject> consents(const QString &userId, const QString &clientId) const;
    void revokeConsent(const QString &userId, const QString &clientId,
                       std::function<void(Core::Result<void>)> done);

    // A sign-in (login page, device page, password grant), counted first: one writer job
    // refuses a locked account or counts the attempt as a failure in advance (locking the
    // account at the threshold), then the password is verified (argon2id, constant time; an
    // unknown user costs the same) and a success resets the count. Parallel wrong guesses
    // therefore cannot pass the threshold. A locked account's password is verified too (the
    // same time as any answer): Locked by an administrator only with the right password, and
    // only within the lockout threshold of attempts since the lock (Wrong otherwise); Locked
    // after failed sign-ins whatever the password, which callers answer as they answer Wrong
    // (an unknown name never locks: a different answer would tell that the name exists).
    // Blocks for the writer: call from a pool thread.
    // Unavailable: the attempt could not be counted (the database cannot be reached, or the
    // writer is stopping), so the password was not checked: "try again", never "wrong".
    // PasswordEnded: the right password, past User::passwordUntil.
    enum class Outcome { Ok, Wrong, Locked, Unavailable, PasswordEnded };
    // What the sign-in pages and the password grant say to PasswordEnded.
    static QString passwordEndedMessage();
    struct Attempt
    {
        Outcome outcome = Outcome::Wrong;
        User user;                    // when Ok
        QString userId;               // the user tried, when known
        bool locked = false;          // the account was locked, whatever the outcome (events)
        bool byAdministrator = false; // when Locked: until an administrator unlocks it
    };
    Attempt signIn(const QString &username, const QByteArray &password, qint64 now,
                   const LockoutPolicy &policy);
    // Revokes every token held for the user (for one client only, when given) and makes their
    // unredeemed authorization codes and approved device codes unusable, in the writer's
    // transaction. *ended (when given): how many tokens and codes it ended.
    static Core::Result<void> revokeUserTokens(Core::WriteTransaction &tx, const QString &userId,
                                               qint64 now, const QString &clientId = {},
                                               int *ended = nullptr);
    // Whether tokens may be issued for the user (exists, not locked by an administrator), read
    // in the writer's transaction that stores them: an error message, or empty.
    // expectedUpdatedAt (>= 0): the user as the caller read them; changed since (a new password,
    // a group taken away: anything an administrator changed), the grant is refused too.
    static QString refusal(Core::WriteTransaction &tx, const QString &userId,
                           qint64 expectedUpdatedAt = -1);
    // Signs the user out of every browser and drops their pending sign-ins (in the transaction
    // that revokes their tokens).
    static Core::Result<void> endUserSessions(Core::WriteTransaction &tx, const QString &userId);
    // signIn, then done (in the calling thread).
    void authenticate(const QString &username, const QByteArray &password, qint64 now,
                      const LockoutPolicy &policy, const std::function<void(Attempt)> &done);

private:
    qint64 nowMs() const;

    Core::Database &m_database;
    Core::WriteQueue &m_writer;
    const Core::Clock &m_clock; // created, updated and revocation times (sign-ins take `now`)
    const Crypto::Password::Parameters m_hashing; // new hashes (password-hash-memory, ...)
    std::once_flag m_dummyOnce;
    QString m_dummyHash; // verified against for unknown users (same cost as a real check)
};

} // namespace Gatehouse::OAuth
