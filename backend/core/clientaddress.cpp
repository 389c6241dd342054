#include "core/clientaddress.h"

#include <cctype>
#include <optional>

namespace Gatehouse::Core {

namespace {

constexpr int kMaxHops = 32;

// One X-Forwarded-For entry: an IPv4 or IPv6 address, an IPv6 one also in brackets.
std::optional<QHostAddress> parseEntry(const QByteArray &entry)
{
    QByteArray text = entry.trimmed();
    if (text.startsWith('[') && text.endsWith(']'))
        text = text.mid(1, text.size() - 2);
    if (text.isEmpty() || text.size() > 45)
        return std::nullopt;
    for (const char c : std::as_const(text))
        if (!(std::isxdigit(static_cast<unsigned char>(c)) || c == '.' || c == ':'))
            return std::nullopt; // no zone ids, host names or ports
    QHostAddress address;
    if (!address.setAddress(QString::fromLatin1(text)))
        return std::nullopt;
    return plainAddress(address);
}

} // namespace

Result<TrustedProxies> TrustedProxies::parse(const QStringList &entries)
{
    TrustedProxies out;
    for (const QString &raw : entries) {
        const QString entry = raw.trimmed();
        if (entry.isEmpty())
            continue;
        QPair<QHostAddress, int> subnet;
        if (entry.contains(QLatin1Char('/'))) {
            subnet = QHostAddress::parseSubnet(entry);
        } else if (QHostAddress single; single.setAddress(entry) && single.scopeId().isEmpty()) {
            subnet = {single, single.protocol() == QAbstractSocket::IPv4Protocol ? 32 : 128};
        }
        // An IPv4 range written as IPv4-mapped IPv6 (::ffff:10.0.0.0/104) is that IPv4 range:
        // the addresses it is compared with are made plain IPv4 too.
        if (!subnet.first.isNull() && subnet.first.protocol() == QAbstractSocket::IPv6Protocol) {
            bool v4 = false;
            const quint32 ip4 = subnet.first.toIPv4Address(&v4);
            if (v4 && subnet.second >= 96)
                subnet = {QHostAddress(ip4), subnet.second - 96};
        }
        if (!subnet.first.isNull() && subnet.second == 0)
            return makeError(QStringLiteral("invalid-config"),
                             QStringLiteral("trusted-proxies: \"%1\" would believe every client's "
                                            "X-Forwarded-For; name the load balancers")
                                 .arg(entry.left(60)),
                             400);
        if (subnet.first.isNull())
            return makeError(QStringLiteral("invalid-config"),
                             QStringLiteral("trusted-proxies: \"%1\" is neither an IP address "
                                            "nor a CIDR range (e.g. 10.0.0.5, 10.0.0.0/24, "
                                            "fd00::/8)")
                                 .arg(entry.left(60)),
                             400);
        out.m_subnets.append(subnet);
    }
    return out;
}

bool TrustedProxies::contains(const QHostAddress &address) const
{
    const QHostAddress plain = plainAddress(address);
    for (const auto &subnet : m_subnets)
        if (plain.isInSubnet(subnet))
            return true;
    return false;
}

QHostAddress plainAddress(const QHostAddress &address)
{
    if (address.protocol() != QAbstractSocket::IPv6Protocol)
        return address;
    bool v4 = false;
    const quint32 ip4 = address.toIPv4Address(&v4);
    return v4 ? QHostAddress(ip4) : address;
}

ClientAddress clientAddress(const QHostAddress &peer, const HeaderList &headers,
                            const TrustedProxies &trusted)
{
    ClientAddress out{plainAddress(peer), {}};
    if (trusted.isEmpty() || !trusted.contains(out.client))
        return out;
    // Every X-Forwarded-For line, in order, as one list.
    QList<QByteArray> entries;
    for (const auto &[name, value] : headers)
        if (name == "x-forwarded-for")
            entries.append(value.split(','));
    int hops = 0;
    for (auto it = entries.crbegin(); it != entries.crend(); ++it) {
        if (!trusted.contains(out.client) || ++hops > kMaxHops)
            break;
        const auto next = parseEntry(*it);
        if (!next)
            break;
        out.forwarder = out.client;
        out.client = *next;
    }
    return out;
}

} // namespace Gatehouse::Core
