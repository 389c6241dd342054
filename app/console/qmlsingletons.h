#pragma once

// QML faces of the console's services. Each is a singleton whose instance is the one the
// engine's ConsoleServices owns (made by run(), or by a test), never one QML creates.

#include "accessview.h"
#include "adminclient.h"
#include "attemptlistmodel.h"
#include "auditlogmodel.h"
#include "beerlistmodel.h"
#include "clientform.h"
#include "clientlistmodel.h"
#include "clusterrequestmodel.h"
#include "clustersettingsstate.h"
#include "consoleappearance.h"
#include "consolelanguage.h"
#include "consoleservices.h"
#include "customerlistmodel.h"
#include "dashboardstats.h"
#include "deliverydetail.h"
#include "deliverylistmodel.h"
#include "endpointlistmodel.h"
#include "eventlistmodel.h"
#include "jsonlistmodel.h"
#include "jwtinspector.h"
#include "kubeconfigform.h"
#include "livelistmodel.h"
#include "livestate.h"
#include "navigationmodel.h"
#include "nodelabeleditor.h"
#include "nodelabelmodel.h"
#include "nodelistmodel.h"
#include "orderdetail.h"
#include "orderhistorymodel.h"
#include "orderlifecyclestate.h"
#include "orderlinemodel.h"
#include "orderlistmodel.h"
#include "rbaclistmodel.h"
#include "redeliveryform.h"
#include "serverstate.h"
#include "settingsmodel.h"
#include "testorderform.h"
#include "tokenlistmodel.h"
#include "tokenpreview.h"
#include "whocanmodel.h"

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

struct LanguageForeign
{
    Q_GADGET
    QML_FOREIGN(Gatehouse::Console::ConsoleLanguage)
    QML_NAMED_ELEMENT(Language)
    QML_SINGLETON
public:
    static ConsoleLanguage *create(QQmlEngine *engine, QJSEngine *)
    {
        return publishedInstance(engine, &ConsoleServices::language);
    }
};

struct AppearanceForeign
{
    Q_GADGET
    QML_FOREIGN(Gatehouse::Console::ConsoleAppearance)
    QML_NAMED_ELEMENT(Appearance)
    QML_SINGLETON
public:
    static ConsoleAppearance *create(QQmlEngine *engine, QJSEngine *)
    {
        return publishedInstance(engine, &ConsoleServices::appearance);
    }
};

struct OrdersForeign
{
    Q_GADGET
    QML_FOREIGN(Gatehouse::Console::OrderListModel)
    QML_NAMED_ELEMENT(Orders)
    QML_SINGLETON
public:
    static OrderListModel *create(QQmlEngine *engine, QJSEngine *)
    {
        return publishedInstance(engine, &ConsoleServices::orders);
    }
};

struct OrderDetailForeign
{
    Q_GADGET
    QML_FOREIGN(Gatehouse::Console::OrderDetail)
    QML_NAMED_ELEMENT(OrderDetail)
    QML_SINGLETON
public:
    static OrderDetail *create(QQmlEngine *engine, QJSEngine *)
    {
        return publishedInstance(engine, &ConsoleServices::orderDetail);
    }
};

struct DeliveriesForeign
{
    Q_GADGET
    QML_FOREIGN(Gatehouse::Console::DeliveryListModel)
    QML_NAMED_ELEMENT(Deliveries)
    QML_SINGLETON
public:
    static DeliveryListModel *create(QQmlEngine *engine, QJSEngine *)
    {
        return publishedInstance(engine, &ConsoleServices::deliveries);
    }
};

struct DeliveryDetailForeign
{
    Q_GADGET
    QML_FOREIGN(Gatehouse::Console::DeliveryDetail)
    QML_NAMED_ELEMENT(DeliveryDetail)
    QML_SINGLETON
public:
    static DeliveryDetail *create(QQmlEngine *engine, QJSEngine *)
    {
        return publishedInstance(engine, &ConsoleServices::deliveryDetail);
    }
};

struct EndpointsForeign
{
    Q_GADGET
    QML_FOREIGN(Gatehouse::Console::EndpointListModel)
    QML_NAMED_ELEMENT(Endpoints)
    QML_SINGLETON
public:
    static EndpointListModel *create(QQmlEngine *engine, QJSEngine *)
    {
        return publishedInstance(engine, &ConsoleServices::endpoints);
    }
};

struct BackendSettingsForeign
{
    Q_GADGET
    QML_FOREIGN(Gatehouse::Console::SettingsModel)
    QML_NAMED_ELEMENT(BackendSettings)
    QML_SINGLETON
public:
    static SettingsModel *create(QQmlEngine *engine, QJSEngine *)
    {
        return publishedInstance(engine, &ConsoleServices::settings);
    }
};

struct CustomersForeign
{
    Q_GADGET
    QML_FOREIGN(Gatehouse::Console::CustomerListModel)
    QML_NAMED_ELEMENT(Customers)
    QML_SINGLETON
public:
    static CustomerListModel *create(QQmlEngine *engine, QJSEngine *)
    {
        return publishedInstance(engine, &ConsoleServices::customers);
    }
};

struct BeersForeign
{
    Q_GADGET
    QML_FOREIGN(Gatehouse::Console::BeerListModel)
    QML_NAMED_ELEMENT(Beers)
    QML_SINGLETON
public:
    static BeerListModel *create(QQmlEngine *engine, QJSEngine *)
    {
        return publishedInstance(engine, &ConsoleServices::beers);
    }
};

struct TestOrderForeign
{
    Q_GADGET
    QML_FOREIGN(Gatehouse::Console::TestOrderForm)
    QML_NAMED_ELEMENT(TestOrder)
    QML_SINGLETON
public:
    static TestOrderForm *create(QQmlEngine *engine, QJSEngine *)
    {
        return publishedInstance(engine, &ConsoleServices::testOrder);
    }
};

struct ClientsForeign
{
    Q_GADGET
    QML_FOREIGN(Gatehouse::Console::ClientListModel)
    QML_NAMED_ELEMENT(Clients)
    QML_SINGLETON
public:
    static ClientListModel *create(QQmlEngine *engine, QJSEngine *)
    {
        return publishedInstance(engine, &ConsoleServices::clients);
    }
};

struct ClientFormForeign
{
    Q_GADGET
    QML_FOREIGN(Gatehouse::Console::ClientForm)
    QML_NAMED_ELEMENT(ClientForm)
    QML_SINGLETON
public:
    static ClientForm *create(QQmlEngine *engine, QJSEngine *)
    {
        return publishedInstance(engine, &ConsoleServices::clientForm);
    }
};

struct TokensForeign
{
    Q_GADGET
    QML_FOREIGN(Gatehouse::Console::TokenListModel)
    QML_NAMED_ELEMENT(Tokens)
    QML_SINGLETON
public:
    static TokenListModel *create(QQmlEngine *engine, QJSEngine *)
    {
        return publishedInstance(engine, &ConsoleServices::tokens);
    }
};

struct JwtInspectorForeign
{
    Q_GADGET
    QML_FOREIGN(Gatehouse::Console::JwtInspector)
    QML_NAMED_ELEMENT(JwtInspector)
    QML_SINGLETON
public:
    static JwtInspector *create(QQmlEngine *engine, QJSEngine *)
    {
        return publishedInstance(engine, &ConsoleServices::jwtInspector);
    }
};

struct NodesForeign
{
    Q_GADGET
    QML_FOREIGN(Gatehouse::Console::NodeListModel)
    QML_NAMED_ELEMENT(Nodes)
    QML_SINGLETON
public:
    static NodeListModel *create(QQmlEngine *engine, QJSEngine *)
    {
        return publishedInstance(engine, &ConsoleServices::nodes);
    }
};

struct NodeEditorForeign
{
    Q_GADGET
    QML_FOREIGN(Gatehouse::Console::NodeLabelEditor)
    QML_NAMED_ELEMENT(NodeEditor)
    QML_SINGLETON
public:
    static NodeLabelEditor *create(QQmlEngine *engine, QJSEngine *)
    {
        return publishedInstance(engine, &ConsoleServices::nodeEditor);
    }
};

struct ClusterSettingsForeign
{
    Q_GADGET
    QML_FOREIGN(Gatehouse::Console::ClusterSettingsState)
    QML_NAMED_ELEMENT(ClusterSettings)
    QML_SINGLETON
public:
    static ClusterSettingsState *create(QQmlEngine *engine, QJSEngine *)
    {
        return publishedInstance(engine, &ConsoleServices::clusterSettings);
    }
};

struct OrderLifecycleForeign
{
    Q_GADGET
    QML_FOREIGN(Gatehouse::Console::OrderLifecycleState)
    QML_NAMED_ELEMENT(OrderLifecycle)
    QML_SINGLETON
public:
    static OrderLifecycleState *create(QQmlEngine *engine, QJSEngine *)
    {
        return publishedInstance(engine, &ConsoleServices::orderLifecycle);
    }
};

struct RbacRolesForeign
{
    Q_GADGET
    QML_FOREIGN(Gatehouse::Console::RbacRoleModel)
    QML_NAMED_ELEMENT(RbacRoles)
    QML_SINGLETON
public:
    static RbacRoleModel *create(QQmlEngine *engine, QJSEngine *)
    {
        return publishedInstance(engine, &ConsoleServices::rbacRoles);
    }
};

struct RbacBindingsForeign
{
    Q_GADGET
    QML_FOREIGN(Gatehouse::Console::RbacBindingModel)
    QML_NAMED_ELEMENT(RbacBindings)
    QML_SINGLETON
public:
    static RbacBindingModel *create(QQmlEngine *engine, QJSEngine *)
    {
        return publishedInstance(engine, &ConsoleServices::rbacBindings);
    }
};

struct WhoCanForeign
{
    Q_GADGET
    QML_FOREIGN(Gatehouse::Console::WhoCanModel)
    QML_NAMED_ELEMENT(WhoCan)
    QML_SINGLETON
public:
    static WhoCanModel *create(QQmlEngine *engine, QJSEngine *)
    {
        return publishedInstance(engine, &ConsoleServices::whoCan);
    }
};

struct ClusterRequestsForeign
{
    Q_GADGET
    QML_FOREIGN(Gatehouse::Console::ClusterRequestModel)
    QML_NAMED_ELEMENT(ClusterRequests)
    QML_SINGLETON
public:
    static ClusterRequestModel *create(QQmlEngine *engine, QJSEngine *)
    {
        return publishedInstance(engine, &ConsoleServices::clusterRequests);
    }
};

struct KubeconfigFormForeign
{
    Q_GADGET
    QML_FOREIGN(Gatehouse::Console::KubeconfigForm)
    QML_NAMED_ELEMENT(KubeconfigForm)
    QML_SINGLETON
public:
    static KubeconfigForm *create(QQmlEngine *engine, QJSEngine *)
    {
        return publishedInstance(engine, &ConsoleServices::kubeconfigForm);
    }
};

// Known to QML (as a property type), never created there.
struct AuditLogForeign
{
    Q_GADGET
    QML_FOREIGN(Gatehouse::Console::AuditLogModel)
    QML_NAMED_ELEMENT(AuditLog)
    QML_SINGLETON
public:
    static AuditLogModel *create(QQmlEngine *engine, QJSEngine *)
    {
        return publishedInstance(engine, &ConsoleServices::auditLog);
    }
};

struct AuditDetailForeign
{
    Q_GADGET
    QML_FOREIGN(Gatehouse::Console::AuditDetail)
    QML_NAMED_ELEMENT(AuditDetail)
    QML_SINGLETON
public:
    static AuditDetail *create(QQmlEngine *engine, QJSEngine *)
    {
        return publishedInstance(engine, &ConsoleServices::auditDetail);
    }
};

struct RedeliveryForeign
{
    Q_GADGET
    QML_FOREIGN(Gatehouse::Console::RedeliveryForm)
    QML_NAMED_ELEMENT(Redelivery)
    QML_SINGLETON
public:
    static RedeliveryForm *create(QQmlEngine *engine, QJSEngine *)
    {
        return publishedInstance(engine, &ConsoleServices::redelivery);
    }
};

struct TokenPreviewForeign
{
    Q_GADGET
    QML_FOREIGN(Gatehouse::Console::TokenPreview)
    QML_NAMED_ELEMENT(TokenPreview)
    QML_SINGLETON
public:
    static TokenPreview *create(QQmlEngine *engine, QJSEngine *)
    {
        return publishedInstance(engine, &ConsoleServices::tokenPreview);
    }
};

struct AccessForeign
{
    Q_GADGET
    QML_FOREIGN(Gatehouse::Console::AccessView)
    QML_NAMED_ELEMENT(Access)
    QML_SINGLETON
public:
    static AccessView *create(QQmlEngine *engine, QJSEngine *)
    {
        return publishedInstance(engine, &ConsoleServices::access);
    }
};

struct DashboardStatsForeign
{
    Q_GADGET
    QML_FOREIGN(Gatehouse::Console::DashboardStats)
    QML_NAMED_ELEMENT(DashboardStats)
    QML_SINGLETON
public:
    static DashboardStats *create(QQmlEngine *engine, QJSEngine *)
    {
        return publishedInstance(engine, &ConsoleServices::dashboardStats);
    }
};

struct ListenerModelForeign
{
    Q_GADGET
    QML_FOREIGN(Gatehouse::Console::ListenerModel)
    QML_ANONYMOUS
};

struct JsonListModelForeign
{
    Q_GADGET
    QML_FOREIGN(Gatehouse::Console::JsonListModel)
    QML_ANONYMOUS
};

struct LiveListModelForeign
{
    Q_GADGET
    QML_FOREIGN(Gatehouse::Console::LiveListModel)
    QML_ANONYMOUS
};

struct ServerStateForeign
{
    Q_GADGET
    QML_FOREIGN(Gatehouse::Console::ServerState)
    QML_ANONYMOUS
};

struct SelectedDetailForeign
{
    Q_GADGET
    QML_FOREIGN(Gatehouse::Console::SelectedDetail)
    QML_ANONYMOUS
};

struct OrderLineModelForeign
{
    Q_GADGET
    QML_FOREIGN(Gatehouse::Console::OrderLineModel)
    QML_ANONYMOUS
};

struct OrderHistoryModelForeign
{
    Q_GADGET
    QML_FOREIGN(Gatehouse::Console::OrderHistoryModel)
    QML_ANONYMOUS
};

struct AttemptListModelForeign
{
    Q_GADGET
    QML_FOREIGN(Gatehouse::Console::AttemptListModel)
    QML_ANONYMOUS
};

struct NodeLabelModelForeign
{
    Q_GADGET
    QML_FOREIGN(Gatehouse::Console::NodeLabelModel)
    QML_ANONYMOUS
};

struct LiveStateForeign
{
    Q_GADGET
    QML_FOREIGN(Gatehouse::Console::LiveState)
    QML_NAMED_ELEMENT(LiveState)
    QML_UNCREATABLE("each live view has its own (its model's live property)")
};

struct RbacListModelForeign
{
    Q_GADGET
    QML_FOREIGN(Gatehouse::Console::RbacListModel)
    QML_ANONYMOUS
};

} // namespace Gatehouse::Console::Qml
