#pragma once

#include "adminevent.h"
#include "livestate.h"

#include <QAbstractListModel>
#include <QDateTime>

#include <deque>

namespace Gatehouse::Console {

// The latest admin events, newest first, at most capacity() of them. Event types the console
// does not know yet are shown generically (their data as key=value pairs).
class EventListModel : public QAbstractListModel
{
    Q_OBJECT
    Q_PROPERTY(int count READ count NOTIFY countChanged)
    Q_PROPERTY(int capacity READ capacity CONSTANT)
    // The stream's liveness (followStream() of the client that feeds addEvent()).
    Q_PROPERTY(Gatehouse::Console::LiveState *live READ live CONSTANT)
    // "stats" and "stats.series" events arrive about once a second; they are kept but hidden
    // unless asked for.
    Q_PROPERTY(bool showStats READ showStats WRITE setShowStats NOTIFY showStatsChanged)

public:
    enum Role {
        SeqRole = Qt::UserRole + 1,
        TypeRole,
        TimeRole,
        TimeTextRole,
        SummaryRole,
        InstanceRole, // the instance it happened on, with several on one database; else ""
    };
    Q_ENUM(Role)

    static constexpr int DefaultCapacity = 500;

    explicit EventListModel(QObject *parent = nullptr);
    EventListModel(int capacity, QObject *parent);

    int rowCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role) const override;
    QHash<int, QByteArray> roleNames() const override;

    int count() const { return rowCount(); }
    int capacity() const { return m_capacity; }
    LiveState *live() { return &m_live; }
    bool showStats() const { return m_showStats; }
    void setShowStats(bool show);

    void addEvent(const AdminEvent &event);
    Q_INVOKABLE void clear();
    // The language changed: summarizes every event again.
    void retranslate();

    // One line for the list: known types get a sentence, others their data as key=value.
    static QString summarize(const AdminEvent &event);

signals:
    void countChanged();
    void showStatsChanged();

private:
    struct Row
    {
        qint64 seq;
        QString type;
        QDateTime time;
        QString summary;
        AdminEvent event; // to summarize again in another language
    };
    bool isVisible(const Row &row) const;

    int m_capacity;
    bool m_showStats = false;
    std::deque<Row> m_all; // newest first, at most m_capacity
    LiveState m_live{nullptr};
    QList<Row> m_rows; // the visible subset of m_all, same order
};

} // namespace Gatehouse::Console
