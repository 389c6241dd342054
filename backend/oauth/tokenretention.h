#pragma once

#include "core/result.h"

#include <QObject>
#include <QTimer>

#include <functional>
#include <memory>
#include <vector>

namespace Gatehouse::Core {
class Clock;
class PostGuard;
class WriteQueue;
} // namespace Gatehouse::Core

namespace Gatehouse::OAuth {

// Retention of what the token endpoint leaves behind (docs/oauth.md "Stored tokens"): access
// and refresh tokens, authorization codes and device codes are deleted `historyDays` after
// they expired (0: kept forever). Until then an expired or revoked token is still known:
// introspection answers `active: false` for it, a rotated refresh token presented again still
// revokes its family, a replayed code still revokes the tokens issued from it, and the audit
// still counts it.
//
// A pass runs at start and every hour, as a chain of small writer jobs (at most `chunk` rows
// each), so the token endpoint's commits go on between them. Tokens are read in issue order
// (their rowid) up to the first one issued after the cutoff: nothing issued later can have
// expired before it, so a pass reads only the old end of the table and needs no index on
// expires_at (which would cost every issued token one more B-tree write). A code stays while a
// token issued from it is kept (a replay must still find it).
class TokenRetention : public QObject
{
    Q_OBJECT
public:
    struct Pruned
    {
        int tokens = 0;
        int codes = 0;
        int deviceCodes = 0;
    };
    using Done = std::function<void(const Core::Result<Pruned> &)>;

    TokenRetention(Core::WriteQueue &writer, const Core::Clock &clock, int historyDays,
                   int chunk = 2000);
    ~TokenRetention() override;

    // A pass now, then one every hour: those only while `scheduled` answers true (Backend:
    // while this instance leads the periodic jobs, Core::Instances), when one is set.
    void start();
    void setScheduled(std::function<bool()> scheduled) { m_scheduled = std::move(scheduled); }
    // One pass; `done` runs on this object's thread when it has ended. A call while a pass is
    // running joins it.
    void prune(Done done = {});
    bool running() const { return m_pass != nullptr; }

private:
    struct Pass;
    struct Chunk;
    void step();
    void chunkDone(const std::shared_ptr<Chunk> &chunk, const Core::Result<void> &r);
    void finish(const Core::Result<Pruned> &r);

    Core::WriteQueue &m_writer;
    const Core::Clock &m_clock;
    const int m_historyDays;
    const int m_chunk;
    QTimer m_timer;
    std::function<bool()> m_scheduled;
    std::shared_ptr<Core::PostGuard> m_guard; // lets the writer's callbacks reach this object
    std::unique_ptr<Pass> m_pass;             // the pass running, if any
};

} // namespace Gatehouse::OAuth
