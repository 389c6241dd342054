#pragma once

#include <QHostAddress>
#include <QList>
#include <QString>

#include <functional>

class QObject;

namespace Gatehouse::Core {

// Host name lookups (A and AAAA; the hosts file first, then the DNS servers the system names,
// read again when /etc/resolv.conf changes and every minute; 3 s and then 6 s a server) on
// c-ares, on one thread of their own for the whole process. A lookup that waits for a DNS
// server costs a few hundred bytes, not a thread: Qt's QHostInfo runs each on a process-wide
// pool of 20 threads, which callback host names that never resolve (chosen by whoever places
// an order) could fill for every other service's lookups.
class Resolver
{
public:
    // Addresses in the order to try them; an empty list with a reason (c-ares' words) when the
    // name does not resolve.
    using Done = std::function<void(const QList<QHostAddress> &addresses, const QString &error)>;

    // At most this many lookups wait at once in the process: one more is answered at once with
    // an empty list and "too many lookups in progress".
    static constexpr int MaxPending = 4096;

    // Looks `host` up (a name; IP literals are the caller's to take as they are). Call it on
    // `context`'s thread. `done` runs there, never inside lookup(), and not at all if `context`
    // is destroyed first.
    static void lookup(const QString &host, QObject *context, Done done);

    // Lookups sent and not answered yet (for the status and the tests).
    static int pending();
    // Whether `error` is that of a lookup refused because MaxPending were waiting: a passing
    // overload of this process, which says nothing about the name (callers answer 503, or
    // ask again, rather than "does not resolve").
    static bool isBusy(const QString &error);
    // Whether `error` is a definite answer that the name has no address (it does not exist,
    // or has no A or AAAA record), as opposed to a failure to learn (timeout, refused, busy):
    // an answer a cache may keep as it keeps addresses.
    static bool isNotFound(const QString &error);
    // Tests only: how many may wait at once (MaxPending unless set).
    static void setLimitForTesting(int limit);
};

} // namespace Gatehouse::Core
