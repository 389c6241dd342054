#include "livelistmodel.h"

#include "orderstatus.h"

#include <QJsonArray>

#include <algorithm>

namespace Gatehouse::Console {

namespace {
// Events that arrive during a reload beyond this many are dropped; the reload's answer is
// recent enough then.
constexpr qsizetype MaxBufferedEvents = 2000;
} // namespace

LiveListModel::LiveListModel(AdminClient *client, QObject *parent)
    : JsonListModel(parent), m_client(client), m_live(client)
{
    // What the stream changes in the rows is this view's "last change".
    for (auto signal : {&QAbstractItemModel::rowsInserted, &QAbstractItemModel::rowsRemoved})
        connect(this, signal, this, [this] {
            if (m_applyingEvent)
                m_live.noteChange();
        });
    connect(this, &QAbstractItemModel::dataChanged, this, [this] {
        if (m_applyingEvent)
            m_live.noteChange();
    });
    if (!client)
        return;
    connect(client, &AdminClient::eventReceived, this, &LiveListModel::handleEvent);
    connect(client, &AdminClient::connectionStateChanged, this, [this] {
        if (m_client && m_client->connectionState() == AdminClient::Online)
            reload(); // events may have been missed while we were away
    });
}

void LiveListModel::reload()
{
    if (!m_client || m_client->connectionState() != AdminClient::Online)
        return;
    if (!canLoad()) {
        ++m_generation; // an answer still under way is for other filters
        m_eventsDuringLoad.clear();
        setLoading(false);
        resetFrom({});
        m_live.noteSynced(); // the filters say there is nothing: that is current
        return;
    }
    const quint64 generation = ++m_generation;
    m_eventsDuringLoad.clear();
    m_window = m_capacity; // one page again
    setOlder(m_hasOlder, false);
    setLoading(true);
    m_live.noteSyncStarted();
    m_client->callApi(listCall(), this, [this, generation](const ApiResult &result) {
        if (generation != m_generation)
            return; // a newer reload (other filters) is under way
        const QList<AdminEvent> events = std::exchange(m_eventsDuringLoad, {});
        if (result.canceled) {
            setLoading(false);
            m_live.noteSyncCanceled();
            return;
        }
        if (!result.ok()) {
            // A 403 is shown by the view's not-permitted pane, not as an error to dismiss.
            setError(result.httpStatus == 403 ? QString() : result.errorMessage);
            if (result.httpStatus == 403)
                resetFrom({}); // not ours to see: nothing stays on screen
            setLoading(false);
            m_live.noteSyncFailed(result.httpStatus, result.errorMessage);
            return;
        }
        setError(QString());
        const QJsonArray items = result.object().value(QLatin1String("items")).toArray();
        resetFrom(items);
        // A full page: there may be more behind it.
        setOlder(!olderCursorParam().isEmpty() && items.size() >= m_capacity, false);
        m_loaded = true;
        setLoading(false);
        m_live.noteSynced();
        for (const AdminEvent &event : events)
            applyLiveEvent(event);
    });
}

void LiveListModel::clearError()
{
    setError(QString());
}

void LiveListModel::handleEvent(const AdminEvent &event)
{
    if (m_loading) {
        if (m_eventsDuringLoad.size() < MaxBufferedEvents)
            m_eventsDuringLoad.append(event);
        return;
    }
    applyLiveEvent(event);
}

void LiveListModel::applyLiveEvent(const AdminEvent &event)
{
    m_applyingEvent = true;
    applyEvent(event);
    m_applyingEvent = false;
}

void LiveListModel::upsert(const QJsonObject &object)
{
    const QJsonObject row = normalize(object);
    const QString id = idOf(row);
    if (id.isEmpty())
        return; // not what the API sends; nothing to key it by
    const int existing = indexOfId(id);
    const bool wanted = accepts(row);
    if (existing >= 0) {
        if (wanted)
            replaceRowAt(existing, row);
        else
            removeRowAt(existing);
        return;
    }
    if (!wanted)
        return;
    const int position = insertPosition(row);
    if (position >= m_window) {
        markOlder(); // it is there, behind what we keep
        return;      // older than everything we keep
    }
    insertRowAt(position, row);
    trimToCapacity();
}

int LiveListModel::insertPosition(const QJsonObject &row) const
{
    // After every row listed before it (ties keep the order they came in).
    if (!hasRowStore()) {
        int position = 0;
        while (position < count() && !listedBefore(row, rows().at(position)))
            ++position;
        return position;
    }
    // A store's rows are many and read back one by one: a binary search, as they are sorted
    // (the store is for lists whose sort key does not change, such as an order's creation).
    // Most new rows are the newest: the top is tried first.
    if (count() == 0 || listedBefore(row, rowAt(0)))
        return 0;
    int low = 1;
    int high = count();
    while (low < high) {
        const int middle = low + (high - low) / 2;
        if (listedBefore(row, rowAt(middle)))
            high = middle;
        else
            low = middle + 1;
    }
    return low;
}

bool LiveListModel::beyondWindow(const QJsonObject &row) const
{
    return count() >= m_window && insertPosition(row) >= m_window;
}

void LiveListModel::markOlder()
{
    if (!olderCursorParam().isEmpty())
        setOlder(true, m_loadingOlder);
}

void LiveListModel::resetFrom(const QJsonArray &items)
{
    QList<QJsonObject> next;
    next.reserve(items.size());
    for (const QJsonValue item : items) {
        const QJsonObject row = normalize(item.toObject());
        if (!idOf(row).isEmpty() && accepts(row))
            next.append(row);
    }
    std::stable_sort(next.begin(), next.end(), [this](const QJsonObject &a, const QJsonObject &b) {
        return listedBefore(a, b);
    });
    if (next.size() > m_window)
        next.resize(m_window);
    if (!hasRows(next))
        setRows(std::move(next));
}

bool LiveListModel::accepts(const QJsonObject &) const
{
    return true;
}

bool LiveListModel::listedBefore(const QJsonObject &a, const QJsonObject &b) const
{
    const QString key = sortTimeKey();
    return ConsoleFormat::parseTime(a.value(key)) > ConsoleFormat::parseTime(b.value(key));
}

void LiveListModel::filtersChanged()
{
    for (int row = count() - 1; row >= 0; --row) {
        if (!accepts(rowAt(row)))
            removeRowAt(row);
    }
    reload();
}

void LiveListModel::setError(const QString &message)
{
    if (m_error == message)
        return;
    m_error = message;
    emit errorChanged();
}

void LiveListModel::fetchAndUpsert(const QString &path)
{
    if (!m_client)
        return;
    m_client->callApi({"GET", path, {}, {}}, this, [this](const ApiResult &result) {
        if (result.ok()) {
            m_applyingEvent = true; // fetched because an event named it
            upsert(result.object());
            m_applyingEvent = false;
        }
        // A failed lookup is not the user's business: the next reload fixes the list.
    });
}

void LiveListModel::runAction(const ApiCall &call, std::function<void(const QJsonObject &)> done,
                              std::function<void()> finished)
{
    if (!m_client) {
        if (finished)
            finished();
        return;
    }
    m_client->callApi(
        call, this,
        [this, done = std::move(done), finished = std::move(finished)](const ApiResult &result) {
            if (result.ok()) {
                setError(QString());
                done(result.object());
            } else if (!result.canceled) {
                setError(result.errorMessage);
            }
            if (finished)
                finished();
        });
}

void LiveListModel::setLoading(bool loading)
{
    if (m_loading == loading)
        return;
    m_loading = loading;
    emit loadingChanged();
}

void LiveListModel::trimToCapacity()
{
    bool trimmed = false;
    while (count() > m_window) {
        removeRowAt(count() - 1);
        trimmed = true;
    }
    if (trimmed)
        markOlder(); // the trimmed rows can be read back
}

void LiveListModel::setOlder(bool hasOlder, bool loadingOlder)
{
    if (m_hasOlder == hasOlder && m_loadingOlder == loadingOlder)
        return;
    m_hasOlder = hasOlder;
    m_loadingOlder = loadingOlder;
    emit olderChanged();
}

bool LiveListModel::canFetchMore(const QModelIndex &parent) const
{
    return !parent.isValid() && m_hasOlder && !m_loadingOlder && !m_loading && count() > 0;
}

void LiveListModel::fetchMore(const QModelIndex &parent)
{
    if (!parent.isValid())
        loadOlder();
}

void LiveListModel::loadOlder()
{
    const QString param = olderCursorParam();
    if (!m_client || param.isEmpty() || !m_hasOlder || m_loadingOlder || m_loading || count() == 0)
        return;
    ApiCall call = listCall();
    call.query.removeAllQueryItems(param);
    call.query.addQueryItem(param, idAt(count() - 1));
    const quint64 generation = m_generation;
    setOlder(true, true);
    m_client->callApi(call, this, [this, generation](const ApiResult &result) {
        if (generation != m_generation)
            return; // reloaded meanwhile: that load decides
        if (!result.ok()) {
            if (!result.canceled)
                setError(result.errorMessage);
            setOlder(true, false); // may be tried again
            return;
        }
        const QJsonArray items = result.object().value(QLatin1String("items")).toArray();
        m_window = count() + m_capacity;
        // All older than the last row (the cursor), so none is listed yet.
        QList<QJsonObject> older;
        older.reserve(items.size());
        for (const QJsonValue item : items) {
            const QJsonObject row = normalize(item.toObject());
            if (!idOf(row).isEmpty() && accepts(row))
                older.append(row);
        }
        appendRows(std::move(older));
        setOlder(items.size() >= m_capacity, false);
    });
}

} // namespace Gatehouse::Console
