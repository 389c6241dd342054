#pragma once

#include "core/httpmessage.h"
#include "core/result.h"

#include <QHostAddress>
#include <QList>
#include <QPair>
#include <QStringList>

namespace Gatehouse::Core {

// The load balancers and reverse proxies whose X-Forwarded-For a listener believes
// (`trusted-proxies`: addresses and CIDR ranges). Empty: nobody's, the header is never read.
class TrustedProxies
{
public:
    // "10.0.0.5", "10.0.0.0/24", "::1", "fd00::/8"; anything else is an invalid-config error
    // naming the entry.
    static Result<TrustedProxies> parse(const QStringList &entries);

    bool isEmpty() const { return m_subnets.isEmpty(); }
    bool contains(const QHostAddress &address) const;

private:
    QList<QPair<QHostAddress, int>> m_subnets;
};

// An IPv4 address a dual-stack socket reports as ::ffff:a.b.c.d, as the IPv4 address.
QHostAddress plainAddress(const QHostAddress &address);

struct ClientAddress
{
    QHostAddress client;    // who the request is from, for limits, logs and the audit log
    QHostAddress forwarder; // the trusted proxy that passed it on; null when it came directly
};

// The client of a request that came from `peer`. A peer that is not a trusted proxy is the
// client, whatever X-Forwarded-For says. Else X-Forwarded-For (all its lines, in order) is read
// from the right, the way each proxy appends the address it saw: the first address that is not
// a trusted proxy is the client. Left of it the client wrote what it liked, so nothing there is
// read. An entry that is not an address (a port, "unknown", garbage) or more than 32 hops
// stops the walk: the last trusted proxy reached counts as the client.
ClientAddress clientAddress(const QHostAddress &peer, const HeaderList &headers,
                            const TrustedProxies &trusted);

} // namespace Gatehouse::Core
