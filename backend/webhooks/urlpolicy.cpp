#include "webhooks/urlpolicy.h"

#include "core/resolver.h"
#include "webhooks/webhookslogging.h"

#include <QDeadlineTimer>
#include <QHash>
#include <QMetaObject>
#include <QMutex>
#include <QObject>

#include <algorithm>
#include <array>
#include <optional>

namespace Gatehouse::Webhooks {

namespace {

constexpr qsizetype kMaxUrlLength = 2048;

Error refused(const QString &message)
{
    return makeError(QString::fromLatin1(kCallbackUrlRefused), message, 400);
}

struct Range
{
    QHostAddress network;
    int prefix = 0;
    QString phrase; // completes "<address> is ..."
};

Range range(const char *cidr, const char *phrase)
{
    const auto subnet = QHostAddress::parseSubnet(QString::fromLatin1(cidr));
    return Range{subnet.first, subnet.second, QString::fromLatin1(phrase)};
}

// Non-public IPv4 ranges (IANA special-purpose registry, RFC 6890), most specific first.
const QList<Range> &ipv4Ranges()
{
    static const QList<Range> ranges{
        range("255.255.255.255/32", "a broadcast address"),
        range("169.254.169.254/32", "a link-local (cloud metadata) address"),
        range("0.0.0.0/8", "a \"this network\" (0.0.0.0/8) address"),
        range("10.0.0.0/8", "a private address"),
        range("100.64.0.0/10", "a shared (carrier-grade NAT) address"),
        range("127.0.0.0/8", "a loopback address"),
        range("169.254.0.0/16", "a link-local address"),
        range("172.16.0.0/12", "a private address"),
        range("192.0.0.0/24", "a reserved (IETF protocol assignments) address"),
        range("192.0.2.0/24", "a documentation address"),
        range("192.168.0.0/16", "a private address"),
        range("198.18.0.0/15", "a benchmarking address"),
        range("198.51.100.0/24", "a documentation address"),
        range("203.0.113.0/24", "a documentation address"),
        range("224.0.0.0/4", "a multicast address"),
        range("240.0.0.0/4", "a reserved address"),
    };
    return ranges;
}

// Non-public IPv6 ranges; ::, ::1 and the forms that embed IPv4 are handled before.
const QList<Range> &ipv6Ranges()
{
    static const QList<Range> ranges{
        range("fe80::/10", "a link-local address"),
        range("fec0::/10", "a site-local (deprecated) address"),
        range("fc00::/7", "a unique-local (private) address"),
        range("ff00::/8", "a multicast address"),
        range("100::/64", "a discard-only address"),
        range("64:ff9b:1::/48", "a local-use NAT64 address"),
        range("2001:2::/48", "a benchmarking address"),
        // IETF protocol assignments (RFC 2928; not globally reachable as a block), among them
        // Teredo (2001::/32, RFC 4380), whose address carries an IPv4 address a host with a
        // Teredo tunnel reaches through it.
        range("2001::/23", "an IETF protocol (Teredo) address"),
        range("2001:db8::/32", "a documentation address"),
        range("3fff::/20", "a documentation address"),
    };
    return ranges;
}

bool inRange(const QHostAddress &address, const Range &r)
{
    return address.protocol() == r.network.protocol() && address.isInSubnet(r.network, r.prefix);
}

struct Embedded
{
    QHostAddress ipv4;
    QString form;
    int bits = 96; // where the IPv4 address starts in the IPv6 one
};

QHostAddress ipv4From(const Q_IPV6ADDR &a, int offset)
{
    return QHostAddress(quint32(a[offset]) << 24 | quint32(a[offset + 1]) << 16 |
                        quint32(a[offset + 2]) << 8 | quint32(a[offset + 3]));
}

bool allZero(const Q_IPV6ADDR &a, int from, int to)
{
    for (int i = from; i < to; ++i)
        if (a[i] != 0)
            return false;
    return true;
}

// The IPv4 address an IPv6 address carries, for the forms that reach (or may be routed
// to) that IPv4 address: a check of the IPv6 form alone would let 10.0.0.1 through.
std::optional<Embedded> embeddedIPv4(const QHostAddress &address)
{
    if (address.protocol() != QAbstractSocket::IPv6Protocol)
        return std::nullopt;
    const Q_IPV6ADDR a = address.toIPv6Address();
    if (allZero(a, 0, 10) && a[10] == 0xff && a[11] == 0xff) // ::ffff:0:0/96 (RFC 4291)
        return Embedded{ipv4From(a, 12), QStringLiteral("IPv4-mapped")};
    if (allZero(a, 0, 8) && a[8] == 0xff && a[9] == 0xff && a[10] == 0 &&
        a[11] == 0) // ::ffff:0:0:0/96 (RFC 2765)
        return Embedded{ipv4From(a, 12), QStringLiteral("IPv4-translated")};
    if (allZero(a, 0, 12)) // ::/96, deprecated IPv4-compatible (RFC 4291 §2.5.5.1)
        return Embedded{ipv4From(a, 12), QStringLiteral("IPv4-compatible")};
    if (a[0] == 0 && a[1] == 0x64 && a[2] == 0xff && a[3] == 0x9b &&
        allZero(a, 4, 12)) // 64:ff9b::/96 (RFC 6052)
        return Embedded{ipv4From(a, 12), QStringLiteral("NAT64")};
    if (a[0] == 0x20 && a[1] == 0x02) // 2002::/16 (RFC 3056)
        return Embedded{ipv4From(a, 2), QStringLiteral("6to4"), 16};
    return std::nullopt;
}

struct Refusal
{
    QString display; // the address, with the IPv4 address it carries if any
    QString phrase;  // "a private address"
};

QString joinedHosts(const QList<QHostAddress> &addresses)
{
    QStringList list;
    for (const auto &a : addresses)
        list.append(a.toString());
    return list.join(QLatin1String(", "));
}

} // namespace

UrlPolicy::UrlPolicy(UrlPolicySettings settings) : m_settings(std::move(settings))
{
    for (const QString &raw : std::as_const(m_settings.allowlist)) {
        const QString entry = raw.trimmed();
        if (entry.isEmpty())
            continue;
        if (entry.contains(QLatin1Char('/'))) {
            const auto subnet = QHostAddress::parseSubnet(entry);
            if (subnet.first.isNull()) {
                qCWarning(lcWebhooks) << "ignoring invalid webhook allowlist entry" << entry;
                continue;
            }
            m_allowedSubnets.append(subnet);
            continue;
        }
        QHostAddress single;
        if (single.setAddress(entry)) {
            m_allowedSubnets.append(
                qMakePair(single, single.protocol() == QAbstractSocket::IPv4Protocol ? 32 : 128));
            continue;
        }
        m_allowedHosts.append(entry.toLower());
    }
}

const UrlPolicySettings &UrlPolicy::settings() const
{
    return m_settings;
}

bool UrlPolicy::isAllowlistedHost(const QString &host) const
{
    return m_allowedHosts.contains(host.toLower());
}

Result<CallbackTarget> UrlPolicy::parse(const QString &url) const
{
    // A pure function of the text (no setting takes part), and QUrl's strict parsing cost
    // more than the rest of a delivery's bookkeeping: an order's callback URL is parsed when
    // it is placed and again for each of its five or more deliveries. Kept per thread (the
    // HTTP thread and the dispatcher's), at most ParseCacheSize texts, then started over.
    constexpr qsizetype ParseCacheSize = 256;
    thread_local QHash<QString, Result<CallbackTarget>> cache;
    if (const auto it = cache.constFind(url); it != cache.cend())
        return *it;
    Result<CallbackTarget> parsed = parseText(url);
    if (url.size() <= kMaxUrlLength) {
        if (cache.size() >= ParseCacheSize)
            cache.clear();
        cache.insert(url, parsed);
    }
    return parsed;
}

Result<CallbackTarget> UrlPolicy::parseText(const QString &url)
{
    if (url.size() > kMaxUrlLength)
        return refused(QStringLiteral("URL is longer than %1 characters").arg(kMaxUrlLength));
    if (url.trimmed().isEmpty())
        return refused(QStringLiteral("URL is empty"));
    if (url.trimmed().size() != url.size())
        return refused(QStringLiteral("URL has leading or trailing white space"));

    // Strict parsing: what is checked here must be exactly what is sent.
    const QUrl u(url, QUrl::StrictMode);
    if (!u.isValid()) {
        QString why = u.errorString();
        if (const qsizetype cut = why.indexOf(QLatin1String("; source was")); cut >= 0)
            why.truncate(cut);
        return refused(QStringLiteral("malformed URL: %1").arg(why));
    }
    if (u.scheme().isEmpty())
        return refused(QStringLiteral("URL must be absolute (http://... or https://...)"));
    const QString scheme = u.scheme().toLower();
    if (scheme != QLatin1String("http") && scheme != QLatin1String("https"))
        return refused(QStringLiteral("scheme %1 is not allowed; use http or https").arg(scheme));
    const QString authority = u.authority(QUrl::FullyEncoded);
    if (authority.contains(QLatin1Char('@')))
        return refused(QStringLiteral("user-info (user:password@) is not allowed in the URL"));
    if (u.hasFragment())
        return refused(
            QStringLiteral("a fragment (#...) is not allowed; it is never sent to the receiver"));

    CallbackTarget target;
    target.host = u.host(QUrl::FullyEncoded).toLower();
    if (target.host.isEmpty())
        return refused(QStringLiteral("URL has no host"));
    if (target.host.contains(QLatin1Char('%')))
        return refused(QStringLiteral("IPv6 zone identifiers are not allowed"));
    QHostAddress literal;
    const bool isLiteral = literal.setAddress(target.host);
    const bool bracketed = authority.startsWith(QLatin1Char('['));
    if (bracketed && (!isLiteral || literal.protocol() != QAbstractSocket::IPv6Protocol))
        return refused(QStringLiteral("IPvFuture host literals are not supported"));
    if (!isLiteral) {
        for (QChar c : std::as_const(target.host)) {
            const bool ok = (c >= QLatin1Char('a') && c <= QLatin1Char('z')) ||
                            (c >= QLatin1Char('0') && c <= QLatin1Char('9')) ||
                            c == QLatin1Char('-') || c == QLatin1Char('.') || c == QLatin1Char('_');
            if (!ok)
                return refused(QStringLiteral("host %1 is not a valid host name").arg(target.host));
        }
        // A numeric last label would be an IPv4 form QUrl did not take (e.g. 4294967296
        // or 1.2.3.4.5); resolvers differ on those, so refuse them (fail closed).
        QString last = target.host.section(QLatin1Char('.'), -1);
        if (last.isEmpty()) // "example.com."
            last = target.host.section(QLatin1Char('.'), -2, -2);
        bool numeric = false;
        last.toULongLong(&numeric, 10);
        if (!numeric && last.startsWith(QLatin1String("0x")))
            last.mid(2).toULongLong(&numeric, 16);
        if (numeric || last == QLatin1String("0x"))
            return refused(QStringLiteral("host %1 is neither an IPv4 address nor a host name")
                               .arg(target.host));
    }

    target.url = u;
    target.tls = scheme == QLatin1String("https");
    const quint16 defaultPort = target.tls ? 443 : 80;
    const int port = u.port(-1);
    if (port == 0)
        return refused(QStringLiteral("port 0 is not allowed"));
    target.port = port < 0 ? defaultPort : quint16(port);

    target.hostHeader = (isLiteral && literal.protocol() == QAbstractSocket::IPv6Protocol)
                            ? '[' + target.host.toLatin1() + ']'
                            : target.host.toLatin1();
    if (target.port != defaultPort)
        target.hostHeader += ':' + QByteArray::number(target.port);

    target.pathAndQuery = u.path(QUrl::FullyEncoded).toLatin1();
    if (target.pathAndQuery.isEmpty())
        target.pathAndQuery = "/";
    if (u.hasQuery())
        target.pathAndQuery += '?' + u.query(QUrl::FullyEncoded).toLatin1();
    return target;
}

namespace {

// Why address is not public, or nothing. Loopback may be allowed (demo/dev).
std::optional<Refusal> classify(const QHostAddress &input, bool allowLoopback)
{
    QHostAddress address = input;
    address.setScopeId(QString());
    if (address.protocol() == QAbstractSocket::IPv4Protocol) {
        for (const Range &r : ipv4Ranges()) {
            if (!inRange(address, r))
                continue;
            if (allowLoopback && address.isLoopback())
                return std::nullopt;
            return Refusal{address.toString(), r.phrase};
        }
        return std::nullopt;
    }
    if (address.protocol() != QAbstractSocket::IPv6Protocol)
        return Refusal{input.toString(), QStringLiteral("not an IP address")};

    if (address == QHostAddress(QHostAddress::AnyIPv6))
        return Refusal{address.toString(), QStringLiteral("the unspecified address")};
    if (address == QHostAddress(QHostAddress::LocalHostIPv6)) {
        if (allowLoopback)
            return std::nullopt;
        return Refusal{address.toString(), QStringLiteral("a loopback address")};
    }
    if (const auto embedded = embeddedIPv4(address)) {
        // Only the mapped form of 127/8 really is this host's loopback; the others
        // (NAT64, 6to4, ...) would leave the host, so they stay refused.
        const bool loopbackOk = allowLoopback && embedded->form == QLatin1String("IPv4-mapped");
        if (const auto inner = classify(embedded->ipv4, loopbackOk)) {
            return Refusal{QStringLiteral("%1 (%2 %3)")
                               .arg(address.toString(), embedded->form, inner->display),
                           inner->phrase};
        }
        return std::nullopt;
    }
    for (const Range &r : ipv6Ranges())
        if (inRange(address, r))
            return Refusal{address.toString(), r.phrase};
    // Everything else outside global unicast (2000::/3) is unassigned or reserved.
    static const Range globalUnicast = range("2000::/3", "");
    if (!inRange(address, globalUnicast))
        return Refusal{address.toString(), QStringLiteral("a reserved address")};
    return std::nullopt;
}

// What an allowlisted name may resolve to beyond public addresses: the private networks where
// partners' internal hosts live (RFC 1918, shared CGNAT space, unique-local IPv6), written
// plainly or IPv4-mapped. Never this host (loopback), link-local and the cloud metadata
// address, multicast or reserved ranges: a name's DNS can change between two attempts, and
// naming a host is not asking for those.
bool privateNetwork(const QHostAddress &input)
{
    QHostAddress address = input;
    address.setScopeId(QString());
    if (const auto embedded = embeddedIPv4(address);
        embedded && embedded->form == QLatin1String("IPv4-mapped"))
        address = embedded->ipv4;
    static const QList<Range> ranges{range("10.0.0.0/8", ""), range("100.64.0.0/10", ""),
                                     range("172.16.0.0/12", ""), range("192.168.0.0/16", ""),
                                     range("fc00::/7", "")};
    return std::any_of(ranges.cbegin(), ranges.cend(),
                       [&address](const Range &r) { return inRange(address, r); });
}

} // namespace

Result<void> UrlPolicy::checkAddress(const QHostAddress &address) const
{
    if (address.isNull())
        return refused(QStringLiteral("no IP address to check"));
    if (!m_allowedSubnets.isEmpty() && allowlisted(address))
        return {};
    if (const auto refusal = classify(address, m_settings.allowLoopback))
        return refused(QStringLiteral("%1 is %2").arg(refusal->display, refusal->phrase));
    return {};
}

// Whether an allowlisted subnet takes the address in (checked at every attempt: only when the
// allowlist has subnets, the common case being none).
bool UrlPolicy::allowlisted(const QHostAddress &address) const
{
    QHostAddress bare = address;
    bare.setScopeId(QString());
    const auto embedded = embeddedIPv4(bare);
    // An IPv4 address in a range written in the IPv4-mapped form (::ffff:10.0.0.0/104).
    const QHostAddress mapped = bare.protocol() == QAbstractSocket::IPv4Protocol
                                    ? QHostAddress(QStringLiteral("::ffff:") + bare.toString())
                                    : QHostAddress();
    for (const auto &subnet : m_allowedSubnets) {
        const Range r{subnet.first, subnet.second, {}};
        // An IPv6 range takes in the IPv4 addresses an embedding form carries only as narrowly
        // as an IPv4 entry may (/8): "::ffff:0:0/96" (or "::/16") would be every IPv4 address,
        // loopback and the metadata address among them.
        const bool asIPv6 = inRange(bare, r) && (!embedded || subnet.second >= embedded->bits + 8);
        const bool asMapped = !mapped.isNull() && subnet.second >= 96 + 8 && inRange(mapped, r);
        if (asIPv6 || asMapped || (embedded && inRange(embedded->ipv4, r)))
            return true;
    }
    return false;
}

Result<QHostAddress> UrlPolicy::decide(const QString &host, const QList<QHostAddress> &addresses,
                                       const QString &lookupError) const
{
    if (addresses.isEmpty() && Core::Resolver::isBusy(lookupError)) {
        qCWarning(lcWebhooks) << "callback host" << host << "not looked up:" << lookupError;
        return makeError(QString::fromLatin1(kCallbackLookupsBusy),
                         QStringLiteral("cannot look %1 up now: %2").arg(host, lookupError), 503);
    }
    if (addresses.isEmpty()) {
        qCInfo(lcWebhooks) << "callback host" << host << "does not resolve:" << lookupError;
        return makeError(QString::fromLatin1(kCallbackHostUnresolved),
                         QStringLiteral("cannot resolve host %1: %2").arg(host, lookupError), 400);
    }
    QHostAddress literal;
    const bool isLiteral = literal.setAddress(host);
    // An allowlisted name may reach private networks, nothing else that is not public: it
    // passed every address before, and a rebound name sent signed POSTs to loopback and to the
    // metadata address.
    const bool allowlistedName = !isLiteral && isAllowlistedHost(host);
    // Fail closed: one non-public address refuses the whole target (DNS rebinding and
    // round-robin tricks would otherwise pick it later).
    for (const QHostAddress &a : addresses) {
        const auto check = checkAddress(a);
        if (check.ok() || (allowlistedName && privateNetwork(a)))
            continue;
        const QString message = isLiteral
                                    ? check.error().message
                                    : QStringLiteral("%1 resolves to %2 (%3)")
                                          .arg(host, joinedHosts(addresses), check.error().message);
        qCInfo(lcWebhooks).noquote() << "callback target refused:" << message;
        return refused(message);
    }
    QHostAddress first = addresses.first();
    if (const auto embedded = embeddedIPv4(first);
        embedded && embedded->form == QLatin1String("IPv4-mapped"))
        first = embedded->ipv4; // connect over IPv4 even where IPv6 is off
    return first;
}

std::optional<Result<QHostAddress>> UrlPolicy::checkLiteral(const CallbackTarget &target) const
{
    QHostAddress literal;
    if (!literal.setAddress(target.host))
        return std::nullopt;
    return decide(target.host, {literal}, QString());
}

namespace {

// What resolve() found for a name, a minute, as Qt's lookup cache kept it: an order placer
// sending many orders with the same callback name asks the DNS server once a minute. (The
// dispatcher keeps its own answers, and looks names up again when they are gone.) A name that
// does not exist is kept as long as one that resolves: the order placer gets one answer for
// "does not resolve" and "resolves to an address that is not public", and with only the
// second kept, how fast the answer came again would have told them apart (which names exist
// in the DNS the server sees). Failures to learn (a timeout, a busy resolver) are not kept.
class LookupCache
{
public:
    static LookupCache &instance()
    {
        static LookupCache cache;
        return cache;
    }

    struct Answer
    {
        QList<QHostAddress> addresses;
        QString error; // when there are none: why (Core::Resolver::isNotFound)
        QDeadlineTimer until;
    };

    std::optional<Answer> find(const QString &host)
    {
        QMutexLocker lock(&m_mutex);
        const auto it = m_entries.constFind(host);
        if (it == m_entries.constEnd() || it->until.hasExpired())
            return std::nullopt;
        return *it;
    }

    void insert(const QString &host, const QList<QHostAddress> &addresses, const QString &error)
    {
        if (addresses.isEmpty() && !Core::Resolver::isNotFound(error))
            return;
        QMutexLocker lock(&m_mutex);
        if (m_entries.size() >= MaxEntries)
            m_entries.clear();
        m_entries.insert(host, Answer{addresses, error, QDeadlineTimer(TtlMs)});
    }

private:
    static constexpr qsizetype MaxEntries = 10'000;
    static constexpr qint64 TtlMs = 60'000;
    QMutex m_mutex;
    QHash<QString, Answer> m_entries;
};

} // namespace

void UrlPolicy::resolve(const CallbackTarget &target, QObject *context,
                        std::function<void(Result<QHostAddress>)> done) const
{
    // A copy: the lookup may outlive this policy object.
    auto answer = [policy = *this, host = target.host, done = std::move(done)](
                      const QList<QHostAddress> &addresses, const QString &lookupError) {
        done(policy.decide(host, addresses, lookupError));
    };

    // Queued even for IP literals: callers may rely on `done` never running inside
    // resolve().
    QMetaObject::invokeMethod(
        context,
        [context, host = target.host, answer = std::move(answer)]() mutable {
            QHostAddress literal;
            if (literal.setAddress(host)) { // no DNS for IP literals
                answer({literal}, QString());
                return;
            }
            if (const auto known = LookupCache::instance().find(host)) {
                answer(known->addresses, known->error);
                return;
            }
            Core::Resolver::lookup(host, context,
                                   [host, answer = std::move(answer)](
                                       const QList<QHostAddress> &addresses, const QString &error) {
                                       LookupCache::instance().insert(host, addresses, error);
                                       answer(addresses, error);
                                   });
        },
        Qt::QueuedConnection);
}

} // namespace Gatehouse::Webhooks
