#pragma once

#include <QObject>

class QQmlEngine;

namespace Gatehouse::Console {

class AdminClient;
class EventListModel;
class NavigationModel;

// The console's service objects, wired together. run() makes one and publishes it to its
// engine; QML sees the members as the singletons AdminClient, EventModel and Navigation
// (see qmlsingletons.h). Tests publish their own instance to their own engine.
class ConsoleServices : public QObject
{
    Q_OBJECT

public:
    explicit ConsoleServices(QObject *parent = nullptr);
    ~ConsoleServices() override;

    AdminClient *adminClient() const { return m_adminClient; }
    EventListModel *eventModel() const { return m_eventModel; }
    NavigationModel *navigation() const { return m_navigation; }

    // Makes these instances the Gatehouse singletons of engine, and makes the Gatehouse QML
    // module importable there. Call before the engine loads anything that imports Gatehouse.
    void publishTo(QQmlEngine *engine);
    // The services published to engine, nullptr if none were.
    static ConsoleServices *of(const QQmlEngine *engine);

private:
    AdminClient *m_adminClient;
    EventListModel *m_eventModel;
    NavigationModel *m_navigation;
};

} // namespace Gatehouse::Console
