#include "oauth/tokenretention.h"
#include "oauth/oauthlogging.h"

#include "core/clock.h"
#include "core/postguard.h"
#include "core/writequeue.h"

namespace Gatehouse::OAuth {

struct TokenRetention::Pass
{
    enum Stage { Tokens, Codes, DeviceCodes };
    qint64 cutoff = 0;
    // Device codes that never gave a token (pending, denied, approved and never redeemed) go
    // an hour after they expired, not the history's days: anyone may ask for one (20 a
    // minute per address), and nothing refers to it.
    qint64 unusedCutoff = 0;
    Stage stage = Tokens;
    qint64 cursor = 0; // the last token rowid read
    Pruned pruned;
    std::vector<Done> done;
};

// What one writer job did.
struct TokenRetention::Chunk
{
    Pass::Stage stage = Pass::Tokens;
    int removed = 0;
    qint64 cursor = 0;
    bool last = false; // the stage has nothing more to remove
};

TokenRetention::TokenRetention(Core::WriteQueue &writer, const Core::Clock &clock, int historyDays,
                               int chunk)
    : m_writer(writer), m_clock(clock), m_historyDays(historyDays), m_chunk(std::max(chunk, 1)),
      m_guard(std::make_shared<Core::PostGuard>(this))
{
    m_timer.setInterval(3600 * 1000);
    connect(&m_timer, &QTimer::timeout, this, [this] {
        if (!m_scheduled || m_scheduled())
            prune();
    });
}

TokenRetention::~TokenRetention()
{
    m_guard->release();
}

void TokenRetention::start()
{
    if (m_historyDays <= 0)
        return;
    if (!m_scheduled || m_scheduled())
        prune();
    m_timer.start();
}

void TokenRetention::prune(Done done)
{
    if (m_historyDays <= 0) {
        if (done)
            done(Pruned{});
        return;
    }
    if (m_pass) { // joins the pass running
        if (done)
            m_pass->done.push_back(std::move(done));
        return;
    }
    m_pass = std::make_unique<Pass>();
    const qint64 now = m_clock.now().toMSecsSinceEpoch();
    m_pass->cutoff = now - qint64(m_historyDays) * 24 * 3600 * 1000;
    m_pass->unusedCutoff = now - 3600 * 1000;
    if (done)
        m_pass->done.push_back(std::move(done));
    step();
}

void TokenRetention::step()
{
    auto chunk = std::make_shared<Chunk>();
    chunk->stage = m_pass->stage;
    const qint64 cutoff = m_pass->cutoff;
    const qint64 unusedCutoff = m_pass->unusedCutoff;
    const qint64 cursor = m_pass->cursor;
    const int limit = m_chunk;
    auto work = [chunk, cutoff, unusedCutoff, cursor,
                 limit](Core::WriteTransaction &tx) -> Core::Result<void> {
        switch (chunk->stage) {
        case Pass::Tokens: {
            // Issue order is rowid order; the first row issued at or after the cutoff ends
            // the stage. Every row of the chunk is read (the statement runs to its end).
            Core::Statement &read = tx.stmt("SELECT id, issued_at, expires_at FROM oauth_tokens "
                                            "WHERE id > ? ORDER BY id LIMIT ?");
            read.bind(1, cursor).bind(2, limit);
            std::vector<qint64> expired;
            int rows = 0;
            chunk->cursor = cursor;
            while (read.next()) {
                ++rows;
                if (chunk->last)
                    continue;
                if (read.int64(1) >= cutoff) {
                    chunk->last = true;
                    continue;
                }
                chunk->cursor = read.int64(0);
                if (read.int64(2) < cutoff)
                    expired.push_back(chunk->cursor);
            }
            if (!read.ok())
                return Core::WriteTransaction::sqlError(read, "token retention");
            chunk->last = chunk->last || rows < limit;
            for (const qint64 id : expired) {
                Core::Statement &del = tx.stmt("DELETE FROM oauth_tokens WHERE id = ?");
                if (!del.bind(1, id).exec())
                    return Core::WriteTransaction::sqlError(del, "token retention");
            }
            chunk->removed = int(expired.size());
            return {};
        }
        case Pass::Codes: {
            Core::Statement &del = tx.stmt(
                "DELETE FROM oauth_codes WHERE hash IN (SELECT c.hash FROM oauth_codes c WHERE "
                "c.expires_at < ? AND NOT EXISTS (SELECT 1 FROM oauth_tokens t WHERE "
                "t.code_hash = c.hash) LIMIT ?)");
            if (!del.bind(1, cutoff).bind(2, limit).exec())
                return Core::WriteTransaction::sqlError(del, "code retention");
            chunk->removed = del.changes();
            chunk->last = chunk->removed < limit;
            return {};
        }
        case Pass::DeviceCodes: {
            Core::Statement &del =
                tx.stmt("DELETE FROM oauth_device_codes WHERE hash IN (SELECT hash FROM "
                        "oauth_device_codes WHERE expires_at < ? OR (status <> 'used' AND "
                        "expires_at < ?) LIMIT ?)");
            if (!del.bind(1, cutoff).bind(2, unusedCutoff).bind(3, limit).exec())
                return Core::WriteTransaction::sqlError(del, "device code retention");
            chunk->removed = del.changes();
            chunk->last = chunk->removed < limit;
            return {};
        }
        }
        return {};
    };
    // The writer's `done` runs on its thread, possibly after this object is gone.
    m_writer.submit(std::move(work),
                    [this, guard = std::weak_ptr(m_guard), chunk](const Core::Result<void> &r) {
                        Core::PostGuard::post(guard, [this, chunk, r] { chunkDone(chunk, r); });
                    });
}

void TokenRetention::chunkDone(const std::shared_ptr<Chunk> &chunk, const Core::Result<void> &r)
{
    if (!m_pass)
        return;
    if (!r)
        return finish(r.error());
    Pass &p = *m_pass;
    switch (chunk->stage) {
    case Pass::Tokens:
        p.pruned.tokens += chunk->removed;
        p.cursor = chunk->cursor;
        break;
    case Pass::Codes:
        p.pruned.codes += chunk->removed;
        break;
    case Pass::DeviceCodes:
        p.pruned.deviceCodes += chunk->removed;
        break;
    }
    if (chunk->last) {
        if (p.stage == Pass::DeviceCodes)
            return finish(p.pruned);
        p.stage = Pass::Stage(p.stage + 1);
    }
    step();
}

void TokenRetention::finish(const Core::Result<Pruned> &r)
{
    const std::unique_ptr<Pass> pass = std::move(m_pass);
    if (!r)
        qCWarning(lcOAuth) << "pruning expired OAuth tokens failed:" << r.error().message;
    else if (r->tokens + r->codes + r->deviceCodes > 0)
        qCInfo(lcOAuth) << "pruned" << r->tokens << "tokens," << r->codes
                        << "authorization codes and" << r->deviceCodes
                        << "device codes expired more than" << m_historyDays << "days ago";
    for (const Done &done : pass->done)
        done(r);
}

} // namespace Gatehouse::OAuth
