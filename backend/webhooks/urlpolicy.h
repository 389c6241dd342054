#pragma once

#include "core/result.h"

#include <QByteArray>
#include <QHostAddress>
#include <QList>
#include <QPair>
#include <QString>
#include <QStringList>
#include <QUrl>

#include <functional>
#include <optional>

class QObject;

// gatehouse.webhooks: URL policy decisions, outbound connections, deliveries.

// SSRF protection for customer-supplied callback URLs (OWASP SSRF cheat sheet, "case 2"):
// http/https only, every resolved address must be public, and the connection goes to the
// address that was checked (no second DNS lookup that could be rebound).
namespace Gatehouse::Webhooks {

// Error codes of the policy (httpStatus 400, but kCallbackLookupsBusy's 503).
inline constexpr char kCallbackUrlRefused[] = "callback-url-refused";         // syntax or address
inline constexpr char kCallbackHostUnresolved[] = "callback-host-unresolved"; // DNS gave nothing
// Too many host names were being looked up in the process at once (Core::Resolver::isBusy): a
// passing overload, 503, not an answer about the name.
inline constexpr char kCallbackLookupsBusy[] = "callback-lookups-busy";

struct UrlPolicySettings
{
    bool allowLoopback = false; // demo/dev switch: loopback receivers allowed (127.0.0.0/8, ::1
                                // and ::ffff:127.0.0.0/104)
    QStringList allowlist;      // entries: CIDR ("10.1.0.0/16", "fd00::/8"), single IP, or a host
                                // name (exact, case-insensitive): such targets skip the check
};

struct CallbackTarget
{
    QUrl url;
    bool tls = false;        // https
    QString host;            // lower-case host name (ACE form for IDNs) or IP literal (no brackets)
    quint16 port = 0;        // explicit or scheme default
    QByteArray hostHeader;   // "host" or "host:port" (IPv6 literal in brackets), RFC 9112 §3.2
    QByteArray pathAndQuery; // encoded, "/" when empty; never a fragment
};

class UrlPolicy
{
public:
    explicit UrlPolicy(UrlPolicySettings settings = {});

    const UrlPolicySettings &settings() const;

    // Syntax: absolute http/https URL (strictly parsed), a host, no user-info, no fragment
    // (a fragment is refused, not dropped: it never reaches a server, so it is a mistake),
    // no IPv6 zone id, port 1..65535, <= 2048 characters. Error code kCallbackUrlRefused,
    // httpStatus 400, the message says why. Numeric IPv4 forms (2130706433, 0x7f000001,
    // 0177.0.0.1, 127.1) are normalised by QUrl to dotted quads, so they are checked as such.
    Result<CallbackTarget> parse(const QString &url) const;

    // The address rule, after normalising IPv4-mapped (::ffff:a.b.c.d), IPv4-translated
    // (::ffff:0:a.b.c.d), IPv4-compatible (::a.b.c.d), NAT64 (64:ff9b::/96) and 6to4
    // (2002::/16) forms to the IPv4 address they carry. Allowlisted CIDRs/IPs pass.
    // The message names the address and its category ("10.0.0.1 is a private address").
    Result<void> checkAddress(const QHostAddress &address) const;

    // Resolves the host (IP literals without DNS; names with Core::Resolver: A and AAAA), checks
    // EVERY address (fail closed: one refused address refuses the target) and answers the
    // first allowed address to connect to. Allowlisted host names skip the check. `done`
    // runs on `context`'s thread, never synchronously inside resolve(), and not at all if
    // `context` is destroyed first. The policy may be destroyed while a lookup runs.
    void resolve(const CallbackTarget &target, QObject *context,
                 std::function<void(Result<QHostAddress>)> done) const;

    // An IP-literal host checked at once, with resolve()'s rules and answers (no lookup, so
    // nothing to wait for): the address to connect to, or the refusal. nullopt when the host
    // is a name: resolve() it.
    std::optional<Result<QHostAddress>> checkLiteral(const CallbackTarget &target) const;

    // Whether a host name is on the allowlist (exact, case-insensitive).
    bool isAllowlistedHost(const QString &host) const;

    // What resolve() answers once it has the host's addresses (for a caller that looks names
    // up itself: the webhook dispatcher, on a pool of its own).
    Result<QHostAddress> decide(const QString &host, const QList<QHostAddress> &addresses,
                                const QString &lookupError) const;

private:
    static Result<CallbackTarget> parseText(const QString &url); // parse(), without its cache
    bool allowlisted(const QHostAddress &address) const;         // in m_allowedSubnets

    UrlPolicySettings m_settings;
    QList<QPair<QHostAddress, int>> m_allowedSubnets;
    QStringList m_allowedHosts; // lower-case
};

} // namespace Gatehouse::Webhooks
