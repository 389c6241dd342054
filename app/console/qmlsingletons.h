#pragma once

// QML faces of the console's services. Each is a singleton whose instance is the one the
// engine's ConsoleServices owns (made by run(), or by a test), never one QML creates.

#include "adminclient.h"
#include "consoleservices.h"
#include "eventlistmodel.h"
#include "navigationmodel.h"

#include <QJSEngine>
#include <QQmlEngine>
#include <QtQml/qqmlregistration.h>

namespace Gatehouse::Console::Qml {

template <typename T>
T *publishedInstance(QQmlEngine *engine, T *(ConsoleServices::*member)() const)
{
    ConsoleServices *services = ConsoleServices::of(engine);
    if (!services) {
        qCritical("Gatehouse: ConsoleServices::publishTo() was not called for this QML engine");
        return nullptr;
    }
    T *instance = (services->*member)();
    QJSEngine::setObjectOwnership(instance, QJSEngine::CppOwnership);
    return instance;
}

struct AdminClientForeign
{
    Q_GADGET
    QML_FOREIGN(Gatehouse::Console::AdminClient)
    QML_NAMED_ELEMENT(AdminClient)
    QML_SINGLETON
public:
    static AdminClient *create(QQmlEngine *engine, QJSEngine *)
    {
        return publishedInstance(engine, &ConsoleServices::adminClient);
    }
};

struct EventModelForeign
{
    Q_GADGET
    QML_FOREIGN(Gatehouse::Console::EventListModel)
    QML_NAMED_ELEMENT(EventModel)
    QML_SINGLETON
public:
    static EventListModel *create(QQmlEngine *engine, QJSEngine *)
    {
        return publishedInstance(engine, &ConsoleServices::eventModel);
    }
};

struct NavigationForeign
{
    Q_GADGET
    QML_FOREIGN(Gatehouse::Console::NavigationModel)
    QML_NAMED_ELEMENT(Navigation)
    QML_SINGLETON
public:
    static NavigationModel *create(QQmlEngine *engine, QJSEngine *)
    {
        return publishedInstance(engine, &ConsoleServices::navigation);
    }
};

// Known to QML (as a property type), never created there.
struct ListenerModelForeign
{
    Q_GADGET
    QML_FOREIGN(Gatehouse::Console::ListenerModel)
    QML_ANONYMOUS
};

} // namespace Gatehouse::Console::Qml
