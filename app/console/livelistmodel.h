#pragma once

#include "adminclient.h"
#include "adminevent.h"
#include "jsonlistmodel.h"
#include "livestate.h"

#include <QPointer>

namespace Gatehouse::Console {

// A JsonListModel that mirrors one admin API list: loaded with REST (again on every
// (re)connect and whenever a filter changes, the filters passed as query parameters) and kept
// current by the admin event stream, row by row (dataChanged for updates, inserts at the
// row's place, newest first by default). The same filters apply on the client to live rows.
// A load reads capacity() rows. Models with an older-page cursor (olderCursorParam(), e.g.
// the orders' "before") page back on demand: views call fetchMore() when scrolled to the end
// (or loadOlder()), each page adds capacity() rows, and a reload starts over at one page.
class LiveListModel : public Gatehouse::Console::JsonListModel
{
    Q_OBJECT
    Q_PROPERTY(bool loading READ loading NOTIFY loadingChanged)
    // True once a load has succeeded (an empty list then means "nothing there").
    Q_PROPERTY(bool loaded READ loaded NOTIFY loadingChanged)
    // The last failed call's message as the API wrote it (never translated); empty when none.
    Q_PROPERTY(QString error READ error NOTIFY errorChanged)
    Q_PROPERTY(int capacity READ capacity CONSTANT)
    // More (older) rows can be read with loadOlder(); and whether such a read is under way.
    Q_PROPERTY(bool hasOlder READ hasOlder NOTIFY olderChanged)
    Q_PROPERTY(bool loadingOlder READ loadingOlder NOTIFY olderChanged)
    // How current the rows are: Live, Stale, Syncing, NotPermitted, ... (LiveState).
    Q_PROPERTY(Gatehouse::Console::LiveState *live READ live CONSTANT)

public:
    static constexpr int DefaultCapacity = 1000;

    // client may be null (unit tests feed rows and events directly).
    LiveListModel(AdminClient *client, QObject *parent);

    bool loading() const { return m_loading; }
    bool loaded() const { return m_loaded; }
    QString error() const { return m_error; }
    int capacity() const { return m_capacity; }
    // Call before the first rows arrive.
    void setCapacity(int capacity) { m_capacity = m_window = std::max(1, capacity); }
    AdminClient *client() const { return m_client; }
    LiveState *live() { return &m_live; }
    bool hasOlder() const { return m_hasOlder; }
    bool loadingOlder() const { return m_loadingOlder; }

    // Reads the next page of older rows after the last one (with olderCursorParam()).
    Q_INVOKABLE void loadOlder();
    bool canFetchMore(const QModelIndex &parent) const override;
    void fetchMore(const QModelIndex &parent) override;

    // Reads the list again (does nothing unless the client is online).
    Q_INVOKABLE void reload();
    Q_INVOKABLE void clearError();

    // A live event; while a reload runs, events are kept and applied on top of its answer.
    void handleEvent(const AdminEvent &event);
    // Adds or updates the row for this object (an API answer or an event's data), or removes
    // it when it no longer passes the filters.
    void upsert(const QJsonObject &object);
    // Replaces the rows with these (an API list; filtered, sorted, capped).
    void resetFrom(const QJsonArray &items);

signals:
    void loadingChanged();
    void errorChanged();
    void olderChanged();

protected:
    // The list call, with the current filters as query parameters.
    virtual ApiCall listCall() const = 0;
    // False when the filters say the list is empty anyway (nothing is asked then).
    virtual bool canLoad() const { return true; }
    // The client-side filter for live rows.
    virtual bool accepts(const QJsonObject &row) const;
    // Whether a belongs above b. Default: newer first by sortTimeKey(), ties keep the order.
    virtual bool listedBefore(const QJsonObject &a, const QJsonObject &b) const;
    virtual QString sortTimeKey() const { return QStringLiteral("createdDate"); }
    // What a row keeps of an object (e.g. without nested attempts); default all of it.
    virtual QJsonObject normalize(const QJsonObject &object) const { return object; }
    // The list call's query parameter that names the row to read older rows after ("before"),
    // or "" when the list does not page back (default).
    virtual QString olderCursorParam() const { return {}; }
    virtual void applyEvent(const AdminEvent &event) = 0;

    // Where upsert() inserts a new row: after every row listedBefore() it.
    int insertPosition(const QJsonObject &row) const;
    // Whether a row would be placed after every row the list keeps (its window is full).
    bool beyondWindow(const QJsonObject &row) const;
    // Rows exist behind the window (for lists that page back): hasOlder becomes true.
    void markOlder();
    // For filter setters: drops the rows that no longer pass at once, then reloads.
    void filtersChanged();
    void setError(const QString &message);
    // GET path (below /admin/v1) and upsert the answer; for rows a live event refers to that
    // the model does not hold yet.
    void fetchAndUpsert(const QString &path);
    // Runs an action; on failure its message becomes error(), on success done gets the answer.
    // finished runs after either (also when the call was canceled).
    void runAction(const ApiCall &call, std::function<void(const QJsonObject &)> done,
                   std::function<void()> finished = {});

private:
    void applyLiveEvent(const AdminEvent &event);
    void setLoading(bool loading);
    void trimToCapacity();
    void setOlder(bool hasOlder, bool loadingOlder);

    QPointer<AdminClient> m_client;
    int m_capacity = DefaultCapacity; // rows per load (a page)
    int m_window = DefaultCapacity;   // rows kept: one page per page read since the reload
    bool m_hasOlder = false;
    bool m_loadingOlder = false;
    quint64 m_generation = 0; // of the newest reload; older answers are dropped
    bool m_loading = false;
    bool m_loaded = false;
    QString m_error;
    QList<AdminEvent> m_eventsDuringLoad;
    LiveState m_live;
    bool m_applyingEvent = false; // row changes now come from the stream
};

} // namespace Gatehouse::Console
